import Router from "@koa/router";
import type { Services } from "../../services.js";
import { optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** POST/DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id. */
export function pushTokensRouter(services: Pick<Services, "pushTokens">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/users/me" });
  const { pushTokens } = services;

  router.post("/apns_device_token", async (ctx) => {
    const args = parseArgs(ctx.state.params, { token: str, appid: optional(str) });
    await pushTokens.add(ctx.state.user, "apns", args.token, args.appid);
    ctx.body = success();
  });
  router.delete("/apns_device_token", async (ctx) => {
    const args = parseArgs(ctx.state.params, { token: str });
    await pushTokens.remove(ctx.state.user, "apns", args.token);
    ctx.body = success();
  });
  router.post("/android_gcm_reg_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { token: str });
    await pushTokens.add(ctx.state.user, "fcm", args.token);
    ctx.body = success();
  });
  router.delete("/android_gcm_reg_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { token: str });
    await pushTokens.remove(ctx.state.user, "fcm", args.token);
    ctx.body = success();
  });
  return router;
}
