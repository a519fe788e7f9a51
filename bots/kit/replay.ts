/**
 * Recorded responses for bots that call outside services: a local HTTP server on 127.0.0.1 that
 * answers each request from a fixture file (`{request: {path, query?}, response: {status, body}}`),
 * so tests never use the network. Point the bot's base-URL config option at `replay.url`.
 */
import Koa from "koa";
import { readdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface RecordedExchange {
  request: { path: string; query?: Record<string, string> };
  response: { status: number; body: unknown };
}

export interface ReplayServer {
  url: string;
  /** Requests seen, as `path?query`. */
  requests: string[];
  close(): Promise<void>;
}

/** Loads every `*.json` of a fixtures folder. */
export function loadRecordings(dir: URL): Map<string, RecordedExchange> {
  const root = fileURLToPath(dir);
  const out = new Map<string, RecordedExchange>();
  for (const file of readdirSync(root)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    out.set(
      file.replace(/\.json$/, ""),
      JSON.parse(readFileSync(path.join(root, file), "utf8")) as RecordedExchange,
    );
  }
  return out;
}

function matches(exchange: RecordedExchange, ctx: Koa.Context): boolean {
  if (exchange.request.path !== ctx.path) return false;
  const query = exchange.request.query ?? {};
  return Object.entries(query).every(([k, v]) => ctx.query[k] === v);
}

/** Serves the recorded exchanges (the first whose path and query match); anything else is a 599. */
export async function startReplayServer(exchanges: Iterable<RecordedExchange>): Promise<ReplayServer> {
  const list = [...exchanges];
  const requests: string[] = [];
  const app = new Koa();
  app.silent = true;
  app.use((ctx) => {
    requests.push(ctx.querystring === "" ? ctx.path : `${ctx.path}?${ctx.querystring}`);
    const exchange = list.find((e) => matches(e, ctx));
    if (exchange === undefined) {
      ctx.status = 599;
      ctx.body = { error: `no recorded response for ${ctx.path}` };
      return;
    }
    ctx.status = exchange.response.status;
    ctx.body = exchange.response.body;
  });
  const server: Server = app.listen({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
