import Router from "@koa/router";
import { userGroupWire } from "../../domain/user-groups/user-groups-service.js";
import type { Services } from "../../services.js";
import { bool, checkInt, int, jsonList, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";
import { groupSettingUpdate, groupSettingValue } from "./group-setting-args.js";

/** User groups: list, create, rename/describe, delete, members. */
export function userGroupsRouter(services: Pick<Services, "userGroups">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/user_groups" });
  const groups = services.userGroups;
  const groupId = (raw: string | undefined): number => int(raw ?? "", "user_group_id");

  router.get("/", async (ctx) => {
    ctx.body = success({ user_groups: (await groups.list()).map(userGroupWire) });
  });

  router.post("/create", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      name: str,
      description: str,
      members: jsonList(checkInt),
      can_mention_group: optional(groupSettingValue),
    });
    // Zulip's schema requires group_id (added in a later feature level); older clients ignore it.
    ctx.body = success({
      group_id: await groups.create(ctx.state.user, {
        name: args.name,
        description: args.description,
        members: args.members,
        canMentionGroup: args.can_mention_group,
      }),
    });
  });

  router.patch("/:user_group_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      name: optional(str),
      description: optional(str),
      can_mention_group: optional(groupSettingUpdate),
    });
    await groups.update(ctx.state.user, groupId(ctx.params["user_group_id"]), {
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
      ...(args.can_mention_group !== undefined ? { canMentionGroup: args.can_mention_group } : {}),
    });
    ctx.body = success();
  });

  router.delete("/:user_group_id", async (ctx) => {
    await groups.delete(ctx.state.user, groupId(ctx.params["user_group_id"]));
    ctx.body = success();
  });

  router.post("/:user_group_id/members", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      add: optional(jsonList(checkInt), []),
      delete: optional(jsonList(checkInt), []),
    });
    await groups.updateMembers(ctx.state.user, groupId(ctx.params["user_group_id"]), {
      add: args.add,
      remove: args.delete,
    });
    ctx.body = success();
  });

  router.get("/:user_group_id/members", async (ctx) => {
    const args = parseArgs(ctx.state.params, { direct_member_only: optional(bool, false) });
    const id = groupId(ctx.params["user_group_id"]);
    ctx.body = success({ members: await groups.members(ctx.state.user, id, args.direct_member_only) });
  });

  router.get("/:user_group_id/members/:user_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { direct_member_only: optional(bool, false) });
    const id = groupId(ctx.params["user_group_id"]);
    const userId = int(ctx.params["user_id"] ?? "", "user_id");
    const member = await groups.isMember(ctx.state.user, id, userId, args.direct_member_only);
    ctx.body = success({ is_user_group_member: member });
  });

  return router;
}
