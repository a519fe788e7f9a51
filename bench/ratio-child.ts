/**
 * The bare app of the ratio benchmark (bench/ratio.ts), in its own process: Koa + @koa/router +
 * koa-body, nothing else, answering the GitHub webhook's URL with the payload parsed and one field
 * of it read. What any Koa app pays per request; the chat server's webhook is compared with it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import Router from "@koa/router";
import { koaBody } from "koa-body";
import { serveRpc } from "./lib/rpc.js";

const app = new Koa();
app.use(koaBody({ jsonLimit: "25mb" }));
const router = new Router({ prefix: "/api/v1" });
router.post("/external/:integration", (ctx) => {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  if (typeof body?.["ref"] !== "string") ctx.throw(400, "no ref");
  ctx.body = { result: "success", msg: "" };
});
app.use(router.routes());
app.use(router.allowedMethods());
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
serveRpc(
  {},
  async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  },
  { url: `http://127.0.0.1:${port}` },
);
