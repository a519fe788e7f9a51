import Router from "@koa/router";
import type { Services } from "../../services.js";
import { bool, checkInt, int, jsonList, optional, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** GET and POST /user_groups/{user_group_id}/subgroups (Zulip 6.0, feature level 127). */
export function userGroupSubgroupsRouter(services: Pick<Services, "userGroups">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/user_groups" });
  const groups = services.userGroups;
  const groupId = (raw: string | undefined): number => int(raw ?? "", "user_group_id");

  router.get("/:user_group_id/subgroups", async (ctx) => {
    const args = parseArgs(ctx.state.params, { direct_subgroup_only: optional(bool, false) });
    const id = groupId(ctx.params["user_group_id"]);
    ctx.body = success({ subgroups: await groups.subgroups(ctx.state.user, id, args.direct_subgroup_only) });
  });

  router.post("/:user_group_id/subgroups", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      add: optional(jsonList(checkInt), []),
      delete: optional(jsonList(checkInt), []),
    });
    await groups.updateSubgroups(ctx.state.user, groupId(ctx.params["user_group_id"]), {
      add: args.add,
      remove: args.delete,
    });
    ctx.body = success();
  });

  return router;
}
