/**
 * A fake chat server for bot-server tests: a small Koa app on port 0 that implements the endpoints
 * a bot uses and records every request (method, path, Basic-auth user, form/query fields).
 */
import Koa from "koa";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  /** `email:key` from the Basic auth header, or null. */
  auth: string | null;
  fields: Record<string, string>;
}

export interface FakeBotAccount {
  email: string;
  key: string;
  fullName: string;
  userId: number;
}

/** A failure the fake answers a bot call with, once: 429 with Retry-After, 503, or a dropped connection. */
export type Fault = { kind: "429"; retryAfter: string } | { kind: "503" } | { kind: "drop" };

export interface FakeChatApi {
  site: string;
  /** Faults for the next bot calls (start-up checks excluded), consumed in order. */
  faults: Fault[];
  /** Requests answered with a fault (they are not in `requests`). */
  faulted: RecordedRequest[];
  requests: RecordedRequest[];
  /** Bot storage per bot email (values as stored, i.e. JSON strings). */
  storage: Map<string, Map<string, string>>;
  /** Requests other than the start-up checks. */
  botCalls(): RecordedRequest[];
  close(): Promise<void>;
}

function error(ctx: Koa.Context, status: number, msg: string, code = "BAD_REQUEST"): void {
  ctx.status = status;
  ctx.body = { result: "error", msg, code };
}

export async function startFakeChatApi(
  accounts: readonly FakeBotAccount[],
  options: { port?: number } = {},
): Promise<FakeChatApi> {
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const faulted: RecordedRequest[] = [];
  const storage = new Map<string, Map<string, string>>();
  let nextMessageId = 100;
  const app = new Koa();
  app.silent = true;

  app.use(async (ctx) => {
    let raw = "";
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) raw += chunk.toString("utf8");
    const fields = Object.fromEntries(new URLSearchParams(ctx.method === "GET" ? ctx.querystring : raw));
    const header = ctx.get("Authorization");
    const auth = header.startsWith("Basic ") ? Buffer.from(header.slice(6), "base64").toString("utf8") : null;
    requests.push({ method: ctx.method, path: ctx.path, auth, fields });

    if (!ctx.path.startsWith("/api/v1/")) {
      error(ctx, 404, "Not Found", "NOT_FOUND");
      return;
    }
    if (ctx.method === "GET" && ctx.path === "/api/v1/server_settings") {
      ctx.body = { result: "success", msg: "", zulip_version: "fake", zulip_feature_level: 1 };
      return;
    }
    const account = accounts.find((a) => `${a.email}:${a.key}` === auth);
    if (!account) {
      error(ctx, 401, "Invalid API key", "INVALID_API_KEY");
      return;
    }
    const fault = ctx.path === "/api/v1/users/me" ? undefined : faults.shift();
    if (fault) faulted.push(requests.pop() as RecordedRequest);
    if (fault?.kind === "drop") {
      ctx.req.socket.destroy();
      return;
    }
    if (fault?.kind === "429") {
      ctx.set("Retry-After", fault.retryAfter);
      error(ctx, 429, "API usage exceeded rate limit", "RATE_LIMIT_HIT");
      return;
    }
    if (fault?.kind === "503") {
      error(ctx, 503, "Service unavailable");
      return;
    }
    const store = storage.get(account.email) ?? new Map<string, string>();
    storage.set(account.email, store);
    const route = `${ctx.method} ${ctx.path}`;
    if (route === "GET /api/v1/users/me") {
      ctx.body = {
        result: "success",
        msg: "",
        user_id: account.userId,
        email: account.email,
        full_name: account.fullName,
      };
    } else if (route === "POST /api/v1/messages") {
      ctx.body = { result: "success", msg: "", id: nextMessageId++ };
    } else if (
      /^PATCH \/api\/v1\/messages\/\d+$/.test(route) ||
      /^POST \/api\/v1\/messages\/\d+\/reactions$/.test(route)
    ) {
      ctx.body = { result: "success", msg: "" };
    } else if (ctx.path === "/api/v1/bot_storage") {
      const keys = fields.keys === undefined ? [...store.keys()] : (JSON.parse(fields.keys) as string[]);
      if (ctx.method === "PUT") {
        for (const [k, v] of Object.entries(JSON.parse(fields.storage ?? "{}") as Record<string, string>))
          store.set(k, v);
        ctx.body = { result: "success", msg: "" };
      } else if (keys.some((k) => !store.has(k))) {
        error(ctx, 400, "Key does not exist.");
      } else if (ctx.method === "GET") {
        ctx.body = {
          result: "success",
          msg: "",
          storage: Object.fromEntries(keys.map((k) => [k, store.get(k)])),
        };
      } else {
        for (const k of keys) store.delete(k);
        ctx.body = { result: "success", msg: "" };
      }
    } else {
      error(ctx, 404, "Not Found", "NOT_FOUND");
    }
  });

  const server: Server = app.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    site: `http://127.0.0.1:${port}`,
    faults,
    faulted,
    requests,
    storage,
    botCalls: () =>
      requests.filter((r) => r.path !== "/api/v1/server_settings" && r.path !== "/api/v1/users/me"),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
