import Router from "@koa/router";
import { linkifierWire } from "../../domain/linkifiers/linkifiers-service.js";
import type { Services } from "../../services.js";
import { int, parseArgs, str, withAlias } from "../params.js";
import type { Parser } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/**
 * The URL template, or the Python-format `url_format_string` that Zulip took before feature level 176
 * (and that the Python client still sends to a level-153 server): `%(name)s` becomes `{name}` and
 * `%%` a literal `%`, the conversion Zulip itself made when it switched to RFC 6570 templates.
 */
const urlTemplate: Parser<string> = (raw, name) =>
  name === "url_format_string"
    ? raw.replace(/%\(([A-Za-z_][A-Za-z0-9_]*)\)s|%%/g, (_m, group?: string) =>
        group === undefined ? "%" : `{${group}}`,
      )
    : raw;
const urlTemplateArg = withAlias(urlTemplate, "url_format_string");

/**
 * Linkifiers: GET /realm/linkifiers, GET (legacy) and POST /realm/filters, PATCH/DELETE
 * /realm/filters/{filter_id}. (GET /realm/emoji is in realm-emoji.ts.)
 */
export function linkifiersRouter(services: Pick<Services, "linkifiers">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/realm" });
  const linkifiers = services.linkifiers;
  const filterId = (raw: string | undefined): number => int(raw ?? "", "filter_id");

  router.get("/linkifiers", async (ctx) => {
    ctx.body = success({ linkifiers: (await linkifiers.list()).map(linkifierWire) });
  });

  // The legacy form zulip-js's filters.retrieve() reads: [pattern, url_template, id] triples.
  router.get("/filters", async (ctx) => {
    ctx.body = success({ filters: (await linkifiers.list()).map((l) => [l.pattern, l.urlTemplate, l.id]) });
  });

  router.post("/filters", async (ctx) => {
    const args = parseArgs(ctx.state.params, { pattern: str, url_template: urlTemplateArg });
    ctx.body = success({ id: await linkifiers.add(ctx.state.user, args.pattern, args.url_template) });
  });

  router.patch("/filters/:filter_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { pattern: str, url_template: urlTemplateArg });
    await linkifiers.update(
      ctx.state.user,
      filterId(ctx.params["filter_id"]),
      args.pattern,
      args.url_template,
    );
    ctx.body = success();
  });

  router.delete("/filters/:filter_id", async (ctx) => {
    await linkifiers.remove(ctx.state.user, filterId(ctx.params["filter_id"]));
    ctx.body = success();
  });

  return router;
}
