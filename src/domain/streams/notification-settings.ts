import { JsonableError } from "../../errors.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { User } from "../users/types.js";

/** The user's global notification settings (PATCH /settings/notifications, register). */
export interface NotificationSettings {
  enable_stream_desktop_notifications: boolean;
  enable_stream_email_notifications: boolean;
  enable_stream_push_notifications: boolean;
  enable_stream_audible_notifications: boolean;
  notification_sound: string;
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
  enable_offline_email_notifications: boolean;
  enable_offline_push_notifications: boolean;
  enable_online_push_notifications: boolean;
  enable_digest_emails: boolean;
  enable_login_emails: boolean;
  message_content_in_email_notifications: boolean;
  pm_content_in_desktop_notifications: boolean;
  wildcard_mentions_notify: boolean;
  desktop_icon_count_display: number;
  realm_name_in_notifications: boolean;
}

export type NotificationSettingName = keyof NotificationSettings;

/** Zulip's defaults (UserProfile / UserBaseSettings), in the order the settings are answered. */
export const NOTIFICATION_SETTING_DEFAULTS: Readonly<NotificationSettings> = {
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: "zulip",
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_notifications: false,
};

export const NOTIFICATION_SETTING_NAMES = Object.keys(
  NOTIFICATION_SETTING_DEFAULTS,
) as NotificationSettingName[];

/** The sounds the server ships (Zulip's static/audio/notification_sounds), plus "none". */
export const NOTIFICATION_SOUNDS: readonly string[] = ["chime", "ding", "zulip", "none"];

/** Global notification settings, stored in `user_settings` next to the user's other settings. */
export class NotificationSettingsStore {
  constructor(
    private readonly store: RepoStore,
    private readonly events: EventSink,
  ) {}

  /** The user's settings, Zulip's defaults for those never set. */
  async get(userId: number): Promise<NotificationSettings> {
    return withDefaults(await this.store.read.users.userSettings(userId));
  }

  /**
   * Applies `changes` (already typed) and returns those whose value changed, with their new values.
   * Bots are refused; desktop_icon_count_display must be 1–3 and notification_sound a known sound.
   * One `update_global_notifications` event per changed setting.
   */
  async update(user: User, changes: Partial<NotificationSettings>): Promise<Partial<NotificationSettings>> {
    if (user.isBot) throw new JsonableError("This endpoint does not accept bot requests.");
    const count = changes.desktop_icon_count_display;
    if (count !== undefined && ![1, 2, 3].includes(count)) {
      throw new JsonableError("Invalid desktop_icon_count_display");
    }
    const sound = changes.notification_sound;
    if (sound !== undefined && !NOTIFICATION_SOUNDS.includes(sound)) {
      throw new JsonableError(`Invalid notification sound '${sound}'`);
    }
    const changed: Record<string, unknown> = {};
    await this.store.transaction(async ({ users: repo }) => {
      const stored = await repo.userSettings(user.id);
      const current = withDefaults(stored);
      for (const name of NOTIFICATION_SETTING_NAMES) {
        const value = changes[name];
        if (value === undefined || value === current[name]) continue;
        changed[name] = value;
      }
      if (Object.keys(changed).length > 0) await repo.saveUserSettings(user.id, { ...stored, ...changed });
    });
    for (const [name, value] of Object.entries(changed)) {
      this.events.send(
        { type: "update_global_notifications", user: user.email, notification_name: name, setting: value },
        [user.id],
      );
    }
    return changed;
  }
}

function withDefaults(stored: Record<string, unknown>): NotificationSettings {
  const out: Record<string, unknown> = { ...NOTIFICATION_SETTING_DEFAULTS };
  for (const name of NOTIFICATION_SETTING_NAMES) {
    const v = stored[name];
    if (v !== undefined && typeof v === typeof NOTIFICATION_SETTING_DEFAULTS[name]) out[name] = v;
  }
  return out as unknown as NotificationSettings;
}
