/**
 * The body parser's JSON handling (src/http/middleware/body.ts): API paths get a JSON object body
 * flattened into `ctx.state.params` (nested values JSON-encoded) and a 400 for malformed JSON;
 * webhook paths (`lenientJsonPaths`) keep the raw bytes for the pipeline and take arguments from
 * the query string only, whatever the payload holds, malformed or not.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import Koa from "koa";
import { bodyParser } from "../../src/http/middleware/body.js";
import type { AppState } from "../../src/http/state.js";

let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = new Koa<AppState>();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = 400;
      ctx.body = { error: (err as Error).constructor.name };
    }
  });
  app.use(bodyParser({ limitBytes: 1024 * 1024, lenientJsonPaths: /^\/api\/v1\/external\// }));
  app.use((ctx) => {
    ctx.body = {
      params: ctx.state.params,
      raw: ctx.state.rawBody.toString("utf8"),
      form: ctx.state.form ?? null,
    };
  });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

async function post(path: string, body: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: res.status, body: await res.json() };
}

const payload = '{"ref":"refs/heads/main","commits":[{"id":"abc"}],"only_events":["push"],"n":3}';

describe("bodyParser: JSON bodies", () => {
  it("flattens a JSON object into params on API paths, nested values JSON-encoded", async () => {
    expect(await post("/api/v1/messages?topic=t", payload)).toEqual({
      status: 200,
      body: {
        params: {
          topic: "t",
          ref: "refs/heads/main",
          commits: '[{"id":"abc"}]',
          only_events: '["push"]',
          n: "3",
        },
        raw: payload,
        form: null,
      },
    });
  });

  it("answers malformed JSON on API paths with InvalidJsonError", async () => {
    expect(await post("/api/v1/messages", "{not json")).toEqual({
      status: 400,
      body: { error: "InvalidJsonError" },
    });
  });

  it("keeps a webhook's payload raw: arguments come from the query string only", async () => {
    expect(await post("/api/v1/external/github?api_key=k&stream=s", payload)).toEqual({
      status: 200,
      body: { params: { api_key: "k", stream: "s" }, raw: payload, form: null },
    });
  });

  it("accepts malformed JSON on webhook paths (the integration decides)", async () => {
    expect(await post("/api/v1/external/github?api_key=k", "{not json")).toEqual({
      status: 200,
      body: { params: { api_key: "k" }, raw: "{not json", form: null },
    });
  });
});
