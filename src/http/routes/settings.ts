import Router from "@koa/router";
import type { Services } from "../../services.js";
import { bool, int, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** PATCH /settings/notifications: the user's global notification settings. */
export function settingsRouter(services: Pick<Services, "streams">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.patch("/settings/notifications", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      enable_stream_desktop_notifications: optional(bool),
      enable_stream_email_notifications: optional(bool),
      enable_stream_push_notifications: optional(bool),
      enable_stream_audible_notifications: optional(bool),
      notification_sound: optional(str),
      enable_desktop_notifications: optional(bool),
      enable_sounds: optional(bool),
      enable_offline_email_notifications: optional(bool),
      enable_offline_push_notifications: optional(bool),
      enable_online_push_notifications: optional(bool),
      enable_digest_emails: optional(bool),
      enable_login_emails: optional(bool),
      message_content_in_email_notifications: optional(bool),
      pm_content_in_desktop_notifications: optional(bool),
      wildcard_mentions_notify: optional(bool),
      desktop_icon_count_display: optional(int),
      realm_name_in_notifications: optional(bool),
    });
    const changes = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
    const changed = await services.streams.updateNotificationSettings(ctx.state.user, changes);
    ctx.body = success(changed);
  });

  return router;
}
