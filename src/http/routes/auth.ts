import Router from "@koa/router";
import type { Services } from "../../services.js";
import { parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** POST /api/v1/fetch_api_key: username + password → API key. No authentication. */
export function authRouter(services: Pick<Services, "users">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });
  router.post("/fetch_api_key", async (ctx) => {
    const args = parseArgs(ctx.state.params, { username: str, password: str });
    const user = await services.users.fetchApiKey(args.username, args.password, ctx.ip);
    ctx.body = success({ api_key: user.apiKey, email: user.email, user_id: user.id });
  });
  return router;
}
