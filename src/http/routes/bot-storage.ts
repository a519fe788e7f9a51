import Router from "@koa/router";
import type { Services } from "../../services.js";
import { checkString, jsonDict, jsonList, optional, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** `PUT/GET/DELETE /api/v1/bot_storage`: a bot's own key-value storage (bots only). */
export function botStorageRouter(services: Pick<Services, "botStorage">): Router<AppState> {
  const { botStorage } = services;
  const router = new Router<AppState>({ prefix: "/api/v1/bot_storage" });

  router.put("/", async (ctx) => {
    botStorage.requireBot(ctx.state.user);
    const args = parseArgs(ctx.state.params, { storage: jsonDict });
    const entries: Record<string, string> = {};
    for (const [key, value] of Object.entries(args.storage)) {
      entries[key] = checkString(value, `storage["${key}"]`);
    }
    await botStorage.put(ctx.state.user.id, entries);
    ctx.body = success();
  });

  router.get("/", async (ctx) => {
    botStorage.requireBot(ctx.state.user);
    const args = parseArgs(ctx.state.params, { keys: optional(jsonList(checkString)) });
    ctx.body = success({ storage: await botStorage.get(ctx.state.user.id, args.keys) });
  });

  router.delete("/", async (ctx) => {
    botStorage.requireBot(ctx.state.user);
    const args = parseArgs(ctx.state.params, { keys: optional(jsonList(checkString)) });
    await botStorage.remove(ctx.state.user.id, args.keys);
    ctx.body = success();
  });

  return router;
}
