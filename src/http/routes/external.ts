import Router from "@koa/router";
import type { Context } from "koa";
import type { IncomingWebhookRequest } from "../../domain/webhooks/types.js";
import type { WebhookService } from "../../domain/webhooks/webhook-service.js";
import { webhookAnswer } from "../../domain/webhooks/answer.js";
import { integrationSummary } from "../../domain/webhooks/integration-summary.js";
import { parseBasicAuth } from "../middleware/basic-auth.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** The absolute URL as the sender called it: scheme (X-Forwarded-Proto, else the socket), Host, path, query. */
export function calledUrl(ctx: Pick<Context, "get" | "protocol" | "originalUrl" | "host">): string {
  const forwarded = ctx.get("x-forwarded-proto").split(",")[0]?.trim().toLowerCase() ?? "";
  const scheme = forwarded === "http" || forwarded === "https" ? forwarded : ctx.protocol;
  return `${scheme}://${ctx.get("host") || ctx.host}${ctx.originalUrl}`;
}

/**
 * Incoming webhooks: `/api/v1/external/<integration>` for any method (POST events; GET, HEAD and
 * POST set-up handshakes), and the public list of integrations with their options and events.
 */
export function externalRouter(webhooks: WebhookService): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  // The bot's key as a path segment (for services that can send neither headers nor a query string
  // safely): the same request, with the segment kept out of the path and URL that are logged.
  router.all("/external/:integration/:key", async (ctx) => {
    const key = ctx.params["key"] ?? "";
    const prefix = `/api/v1/external/${encodeURIComponent(ctx.params["integration"] ?? "")}`;
    const q = ctx.originalUrl.indexOf("?");
    await handle(ctx, {
      key: { via: "path", key },
      path: prefix,
      url: calledUrl({
        get: (h: string) => ctx.get(h),
        protocol: ctx.protocol,
        host: ctx.host,
        originalUrl: prefix + (q === -1 ? "" : ctx.originalUrl.slice(q)),
      }),
    });
  });

  router.all("/external/:integration", async (ctx) => {
    await handle(ctx, {});
  });

  async function handle(
    ctx: Parameters<Parameters<typeof router.all>[1]>[0],
    over: { key?: IncomingWebhookRequest["key"]; path?: string; url?: string },
  ): Promise<void> {
    const authorization = ctx.get("authorization");
    let basicAuth: [string, string] | undefined;
    let key = over.key;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (bearer !== null) {
      key ??= { via: "bearer", key: bearer[1] ?? "" };
    } else {
      try {
        basicAuth = authorization === "" ? undefined : parseBasicAuth(authorization);
      } catch {
        basicAuth = undefined;
      }
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(ctx.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    // Zulip reads a webhook's arguments from the query string and form fields only: the keys of a
    // JSON body (Intercom's `topic`) are payload, not URL parameters.
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.query)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (last !== undefined) params[k] = last;
    }
    Object.assign(params, ctx.state.form ?? {});
    const req: IncomingWebhookRequest = {
      method: ctx.method,
      path: over.path ?? ctx.path,
      url: over.url ?? calledUrl(ctx),
      headers,
      params,
      rawBody: ctx.state.rawBody,
      form: ctx.state.form,
      basicAuth,
      ...(key === undefined ? {} : { key }),
    };
    const result = await webhooks.handle(ctx.params["integration"] ?? "", req);
    const answer = webhookAnswer(result);
    ctx.status = answer.status;
    for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
    ctx.type = answer.contentType;
    ctx.body = answer.body;
  }

  router.get("/integrations", (ctx) => {
    ctx.body = success({ integrations: webhooks.list().map(integrationSummary) });
  });

  return router;
}
