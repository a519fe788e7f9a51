import Router from "@koa/router";
import type { DisplaySettings } from "../../domain/settings/settings-service.js";
import { DISPLAY_DEFAULTS } from "../../domain/settings/settings-service.js";
import { NOTIFICATION_SETTING_DEFAULTS } from "../../domain/streams/notification-settings.js";
import type { Services } from "../../services.js";
import type { ArgSpec } from "../params.js";
import { bool, int, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** An optional parser per setting, by the type of its default value. */
function specsOf(defaults: Readonly<Record<string, unknown>>): Record<string, ArgSpec<unknown>> {
  const specs: Record<string, ArgSpec<unknown>> = {};
  for (const [name, value] of Object.entries(defaults)) {
    specs[name] =
      typeof value === "boolean" ? optional(bool) : typeof value === "number" ? optional(int) : optional(str);
  }
  return specs;
}

const DISPLAY_SPECS = specsOf(DISPLAY_DEFAULTS);
const NOTIFICATION_SPECS = specsOf(NOTIFICATION_SETTING_DEFAULTS);

const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** PATCH /settings: full name, password, display and notification settings. */
export function userSettingsRouter(services: Pick<Services, "settings" | "streams">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.patch("/settings", async (ctx) => {
    const { params } = ctx.state;
    const account = parseArgs(params, {
      full_name: optional(str),
      old_password: optional(str),
      new_password: optional(str),
    });
    const display = defined(parseArgs(params, DISPLAY_SPECS)) as Partial<DisplaySettings>;
    const notifications = defined(parseArgs(params, NOTIFICATION_SPECS));
    await services.settings.update(ctx.state.user, {
      fullName: account.full_name,
      oldPassword: account.old_password,
      newPassword: account.new_password,
      display,
    });
    if (Object.keys(notifications).length > 0) {
      await services.streams.updateNotificationSettings(ctx.state.user, notifications);
    }
    ctx.body = success();
  });

  return router;
}
