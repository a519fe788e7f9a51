import Router from "@koa/router";
import type { Services } from "../../services.js";
import { int, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";
import { REALM_PERMISSION_NAMES } from "../../domain/user-groups/group-settings.js";
import { groupSettingUpdates } from "./group-setting-args.js";

/**
 * PATCH /realm: the organization settings this server has, each changed by the area that owns it
 * (administrators only; every change sends a `realm` event): `name` and `description` (the
 * organization's profile), `moderation_request_channel_id` (message reports), `topics_policy`
 * (empty topics) and the group-based permissions `can_add_subscribers_group`,
 * `can_create_public_channel_group`, `can_create_private_channel_group` and
 * `can_invite_users_group` (`{"new", "old"}`); `invite_to_realm_policy`, the legacy name of
 * `can_invite_users_group` before Zulip 10.0, sets it from the old number.
 */
export function realmRouter(
  services: Pick<
    Services,
    "groupPermissions" | "invites" | "messageReports" | "realmProfile" | "topicsPolicy"
  >,
): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.patch("/realm", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      invite_to_realm_policy: optional(int),
      moderation_request_channel_id: optional(int),
      topics_policy: optional(str),
      name: optional(str),
      description: optional(str),
    });
    const groupSettings = groupSettingUpdates(ctx.state.params, REALM_PERMISSION_NAMES);
    await services.realmProfile.set(ctx.state.user, { name: args.name, description: args.description });
    if (args.invite_to_realm_policy !== undefined) {
      await services.invites.setLegacyPolicy(ctx.state.user, args.invite_to_realm_policy);
    }
    if (args.moderation_request_channel_id !== undefined) {
      await services.messageReports.setModerationRequestChannel(
        ctx.state.user,
        args.moderation_request_channel_id,
      );
    }
    if (args.topics_policy !== undefined) {
      await services.topicsPolicy.set(ctx.state.user, args.topics_policy);
    }
    await services.groupPermissions.setRealmSettings(ctx.state.user, groupSettings);
    ctx.body = success();
  });

  return router;
}
