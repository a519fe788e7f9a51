import Router from "@koa/router";
import { snippetText } from "../../domain/saved-snippets/saved-snippets-service.js";
import type { Services } from "../../services.js";
import { int, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

const title = (raw: string): string => snippetText(raw, "title");
const content = (raw: string): string => snippetText(raw, "content");

/** GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{saved_snippet_id} (Zulip's views/saved_snippets.py). */
export function savedSnippetsRouter(services: Pick<Services, "savedSnippets">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/saved_snippets" });
  const snippets = services.savedSnippets;
  const snippetId = (raw: string | undefined): number => int(raw ?? "", "saved_snippet_id");

  router.get("/", async (ctx) => {
    ctx.body = success({ saved_snippets: await snippets.list(ctx.state.user) });
  });

  router.post("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, { title: str, content: str });
    const id = await snippets.create(ctx.state.user, title(args.title), content(args.content));
    ctx.body = success({ saved_snippet_id: id });
  });

  router.patch("/:saved_snippet_id", async (ctx) => {
    const id = snippetId(ctx.params["saved_snippet_id"]);
    const args = parseArgs(ctx.state.params, { title: optional(str), content: optional(str) });
    await snippets.edit(ctx.state.user, id, {
      title: args.title === undefined ? undefined : title(args.title),
      content: args.content === undefined ? undefined : content(args.content),
    });
    ctx.body = success();
  });

  router.delete("/:saved_snippet_id", async (ctx) => {
    await snippets.delete(ctx.state.user, snippetId(ctx.params["saved_snippet_id"]));
    ctx.body = success();
  });

  return router;
}
