import Router from "@koa/router";
import type { Services } from "../../services.js";
import { checkString, int, jsonList, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Alert words and muted users of the current user. */
export function personalListsRouter(services: Pick<Services, "personalLists">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/users/me" });
  const lists = services.personalLists;

  router.get("/alert_words", async (ctx) => {
    ctx.body = success({ alert_words: await lists.alertWords(ctx.state.user) });
  });

  router.post("/alert_words", async (ctx) => {
    const args = parseArgs(ctx.state.params, { alert_words: jsonList(checkString) });
    ctx.body = success({ alert_words: await lists.addAlertWords(ctx.state.user, args.alert_words) });
  });

  router.delete("/alert_words", async (ctx) => {
    const args = parseArgs(ctx.state.params, { alert_words: jsonList(checkString) });
    ctx.body = success({ alert_words: await lists.removeAlertWords(ctx.state.user, args.alert_words) });
  });

  router.post("/muted_users/:muted_user_id", async (ctx) => {
    await lists.mute(ctx.state.user, int(ctx.params["muted_user_id"] ?? "", "muted_user_id"));
    ctx.body = success();
  });

  router.delete("/muted_users/:muted_user_id", async (ctx) => {
    await lists.unmute(ctx.state.user, int(ctx.params["muted_user_id"] ?? "", "muted_user_id"));
    ctx.body = success();
  });

  return router;
}
