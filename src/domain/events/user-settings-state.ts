import type { Queryable } from "../../store/db.js";
import { UsersRepo } from "../../store/users-repo.js";

/**
 * A user's global settings as register shows them (Zulip 6 defaults overlaid with what the user
 * stored in `user_settings`). Keys are the API's names, as the settings endpoints store them.
 */
export const NOTIFICATION_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: "zulip",
  wildcard_mentions_notify: true,
  enable_desktop_notifications: true,
  pm_content_in_desktop_notifications: true,
  enable_sounds: true,
  enable_offline_email_notifications: true,
  message_content_in_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  desktop_icon_count_display: 1,
  enable_digest_emails: true,
  enable_login_emails: true,
  enable_marketing_emails: true,
  presence_enabled: true,
  realm_name_in_notifications: false,
  email_notifications_batching_period_seconds: 120,
});

export const DISPLAY_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  twenty_four_hour_time: false,
  dense_mode: true,
  starred_message_counts: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: "en",
  default_view: "recent_topics",
  escape_navigates_to_default_view: true,
  left_side_userlist: false,
  emojiset: "google",
  demote_inactive_streams: 1,
  user_list_style: 2,
  enter_sends: false,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
});

function overlay(defaults: Readonly<Record<string, unknown>>, stored: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(defaults)) out[k] = k in stored ? stored[k] : v;
  return out;
}

export interface UserSettingsState {
  notifications: Record<string, unknown>;
  display: Record<string, unknown>;
}

/** Reads the stored settings of `userId` and fills in the defaults. */
export async function loadUserSettingsState(db: Queryable, userId: number): Promise<UserSettingsState> {
  const stored = await new UsersRepo(db).userSettings(userId);
  return {
    notifications: overlay(NOTIFICATION_SETTING_DEFAULTS, stored),
    display: overlay(DISPLAY_SETTING_DEFAULTS, stored),
  };
}
