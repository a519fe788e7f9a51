import { JsonableError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import { hashPassword, verifyPassword } from "../users/secrets.js";
import type { User } from "../users/types.js";

/**
 * Display settings clients read (Zulip's names), with Zulip's defaults. Those before `timezone` are
 * also sent at the top level of register for clients without the user_settings_object capability.
 */
export const DISPLAY_DEFAULTS = {
  twenty_four_hour_time: false,
  starred_message_counts: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  color_scheme: 1,
  translate_emoticons: false,
  default_language: "en",
  left_side_userlist: false,
  emojiset: "google",
  demote_inactive_streams: 1,
  enter_sends: false,
  display_emoji_reaction_users: true,
  user_list_style: 2,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  presence_enabled: true,
};

export type DisplaySettings = typeof DISPLAY_DEFAULTS;
export type DisplaySettingName = keyof DisplaySettings;
export const DISPLAY_SETTING_NAMES = Object.keys(DISPLAY_DEFAULTS) as DisplaySettingName[];

/** Settings newer than the legacy top-level register format (only in `user_settings`). */
export const USER_SETTINGS_ONLY: readonly DisplaySettingName[] = [
  "display_emoji_reaction_users",
  "user_list_style",
  "send_private_typing_notifications",
  "send_stream_typing_notifications",
  "send_read_receipts",
  "presence_enabled",
];

const EMOJISETS = ["google", "google-blob", "twitter", "text"];

/** Where settings, names and passwords are stored (UsersRepo and UserAdminRepo). */
export interface SettingsStore {
  userSettings(userId: number): Promise<Record<string, unknown>>;
  saveUserSettings(userId: number, settings: Record<string, unknown>): Promise<void>;
  passwordHash(userId: number): Promise<string | null>;
  setPasswordHash(userId: number, hash: string): Promise<void>;
  setFullName(userId: number, fullName: string): Promise<void>;
}

export interface SettingsUsers {
  activeUserIds(): Promise<number[]>;
  invalidateCredentials(userId: number): void;
  validateFullName(fullName: string): string;
}

export interface SettingsChange {
  fullName?: string | undefined;
  oldPassword?: string | undefined;
  newPassword?: string | undefined;
  display: Partial<DisplaySettings>;
}

/** PATCH /settings: the user's name, password and display settings, with Zulip's events. */
export class SettingsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly users: SettingsUsers,
    private readonly events: EventSink,
  ) {}

  /** The user's display settings, Zulip's defaults for those never set. */
  async display(userId: number): Promise<DisplaySettings> {
    const stored = await this.store.userSettings(userId);
    const out: Record<string, unknown> = { ...DISPLAY_DEFAULTS };
    for (const name of DISPLAY_SETTING_NAMES) if (stored[name] !== undefined) out[name] = stored[name];
    return out as DisplaySettings;
  }

  async update(user: User, change: SettingsChange): Promise<void> {
    if (user.isBot) throw new JsonableError("This endpoint does not accept bot requests.");
    this.checkDisplay(change.display);
    const fullName = change.fullName === undefined ? undefined : this.users.validateFullName(change.fullName);
    if (change.newPassword !== undefined) {
      if (change.oldPassword === undefined) throw new JsonableError("Missing 'old_password' argument");
      const stored = await this.store.passwordHash(user.id);
      if (stored === null || !(await verifyPassword(change.oldPassword, stored))) {
        throw new JsonableError("Wrong password!");
      }
      if (change.newPassword.length < 6) throw new JsonableError("New password is too weak!");
      await this.store.setPasswordHash(user.id, await hashPassword(change.newPassword));
      this.users.invalidateCredentials(user.id);
    }
    if (fullName !== undefined && fullName !== user.fullName) {
      await this.store.setFullName(user.id, fullName);
      this.users.invalidateCredentials(user.id);
      const everyone = await this.users.activeUserIds();
      this.events.send(
        { type: "realm_user", op: "update", person: { user_id: user.id, full_name: fullName } },
        everyone,
      );
    }
    const stored = await this.store.userSettings(user.id);
    const current = await this.display(user.id);
    const changed: Record<string, unknown> = {};
    for (const name of DISPLAY_SETTING_NAMES) {
      const value = change.display[name];
      if (value !== undefined && value !== current[name]) changed[name] = value;
    }
    if (Object.keys(changed).length === 0) return;
    await this.store.saveUserSettings(user.id, { ...stored, ...changed });
    for (const [name, value] of Object.entries(changed)) {
      this.events.send({ type: "user_settings", op: "update", property: name, value }, [user.id]);
      if (!(USER_SETTINGS_ONLY as readonly string[]).includes(name)) {
        this.events.send(
          { type: "update_display_settings", user: user.email, setting_name: name, setting: value },
          [user.id],
        );
      }
    }
  }

  private checkDisplay(d: Partial<DisplaySettings>): void {
    const inRange = (name: DisplaySettingName, values: readonly number[]): void => {
      const v = d[name];
      if (v !== undefined && !values.includes(v as number)) throw new JsonableError(`Invalid ${name}`);
    };
    inRange("color_scheme", [1, 2, 3]);
    inRange("demote_inactive_streams", [1, 2, 3]);
    inRange("user_list_style", [1, 2, 3]);
    if (d.emojiset !== undefined && !EMOJISETS.includes(d.emojiset))
      throw new JsonableError("Invalid emojiset");
  }
}
