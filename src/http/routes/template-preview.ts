import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { TemplatePreview } from "../../domain/webhooks/template-preview.js";
import { checkDict, checkString, json, jsonOf, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

function stringDict(value: Record<string, unknown>, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) out[k.toLowerCase()] = checkString(v, `${name}["${k}"]`);
  return out;
}

/**
 * POST /api/v1/integrations/template/preview: renders a template pair against a sample payload
 * (and optional headers and query), as the template integration would; an error names the
 * template, line and column.
 */
export function templatePreviewRouter(renderTemplates: TemplatePreview): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });
  router.post("/integrations/template/preview", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      template_topic: optional(str, ""),
      template_body: str,
      payload: json,
      headers: optional(jsonOf(checkDict)),
      query: optional(jsonOf(checkDict)),
    });
    if (args.template_body.trim() === "") throw new JsonableError("template_body is empty");
    const { topic, body } = await renderTemplates(
      { topic: args.template_topic, body: args.template_body },
      {
        payload: args.payload,
        headers: stringDict(args.headers ?? {}, "headers"),
        query: stringDict(args.query ?? {}, "query"),
      },
    );
    ctx.body = success({ topic, body });
  });
  return router;
}
