import Router from "@koa/router";
import type { Services } from "../../services.js";
import { int, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** User administration: PATCH /users/{id}, DELETE /users/{id}, DELETE /users/me. */
export function usersAdminRouter(services: Pick<Services, "userAdmin">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/users" });
  const userId = (raw: string | undefined): number => int(raw ?? "", "user_id");

  router.delete("/me", async (ctx) => {
    await services.userAdmin.deactivate(ctx.state.user, ctx.state.user.id);
    ctx.body = success();
  });

  router.patch("/:user_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { full_name: optional(str), role: optional(int) });
    await services.userAdmin.update(ctx.state.user, userId(ctx.params["user_id"]), {
      ...(args.full_name !== undefined ? { fullName: args.full_name } : {}),
      ...(args.role !== undefined ? { role: args.role } : {}),
    });
    ctx.body = success();
  });

  router.delete("/:user_id", async (ctx) => {
    await services.userAdmin.deactivate(ctx.state.user, userId(ctx.params["user_id"]));
    ctx.body = success();
  });

  return router;
}
