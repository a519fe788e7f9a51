import Router from "@koa/router";
import type { WebhookService } from "../../domain/webhooks/webhook-service.js";
import { parseBasicAuth } from "../middleware/basic-auth.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/**
 * Incoming webhooks: `/api/v1/external/<integration>` for any method (as Zulip's URL routes), and
 * the public list of integrations with their options and events.
 */
export function externalRouter(webhooks: WebhookService): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.all("/external/:integration", async (ctx) => {
    const authorization = ctx.get("authorization");
    let basicAuth: [string, string] | undefined;
    try {
      basicAuth = authorization === "" ? undefined : parseBasicAuth(authorization);
    } catch {
      basicAuth = undefined;
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(ctx.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    const result = await webhooks.handle(ctx.params["integration"] ?? "", {
      path: ctx.path,
      headers,
      params: ctx.state.params,
      rawBody: ctx.state.rawBody,
      form: ctx.state.form,
      basicAuth,
    });
    ctx.body = success(result.data);
  });

  router.get("/integrations", (ctx) => {
    ctx.body = success({
      integrations: webhooks.list().map((i) => ({
        name: i.name,
        display_name: i.displayName,
        categories: i.categories,
        description: i.description ?? "",
        url: `/api/v1/external/${i.name}`,
        event_header: i.eventHeader ?? null,
        options: Object.entries(i.options ?? {}).map(([key, spec]) => ({
          key,
          label: spec.label,
          ...(spec.default !== undefined ? { default: spec.default } : {}),
        })),
        events: i.allEventTypes ?? Object.keys(i.handlers),
        ignored_events: i.ignoredEvents ?? [],
        signature: i.signature ?? null,
      })),
    });
  });

  return router;
}
