import crypto from "node:crypto";
import type { Queryable } from "./db.js";
import { jsonIdsIn, sqlBool } from "./db.js";
import type {
  BotService,
  BotTypeValue,
  CustomProfileField,
  ProfileValue,
  Realm,
  RealmTopicsPolicy,
  RoleValue,
  User,
} from "../domain/users/types.js";

interface UserRow {
  id: number;
  realm_id: number;
  email: string;
  full_name: string;
  short_name: string;
  api_key: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  timezone: string;
  date_joined_ms: number;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: number;
}

const USER_COLUMNS =
  "id, realm_id, email, full_name, short_name, api_key, role, is_active, is_bot, bot_type, bot_owner_id, timezone, date_joined_ms, default_sending_stream, default_events_register_stream, default_all_public_streams";

function toUser(r: UserRow): User {
  return {
    id: r.id,
    realmId: r.realm_id,
    email: r.email,
    fullName: r.full_name,
    shortName: r.short_name,
    apiKey: r.api_key,
    role: r.role as RoleValue,
    isActive: r.is_active === 1,
    isBot: r.is_bot === 1,
    botType: r.bot_type as BotTypeValue | null,
    botOwnerId: r.bot_owner_id,
    timezone: r.timezone,
    dateJoinedMs: r.date_joined_ms,
    defaultSendingStream: r.default_sending_stream,
    defaultEventsRegisterStream: r.default_events_register_stream,
    defaultAllPublicStreams: r.default_all_public_streams === 1,
  };
}

/**
 * The lookup id of an API key: SHA-256 hex (migration 007's indexed `api_key_hash`). Keys are found
 * by it and then compared in constant time, so no index lookup runs on the secret itself.
 */
export function apiKeyLookupId(apiKey: string): string {
  return crypto.createHash("sha256").update(apiKey, "utf8").digest("hex");
}

type CredentialsListener = (userId: number) => void;
const credentialsListeners = new Set<CredentialsListener>();

/**
 * Called (synchronously, in this process) whenever any UsersRepo writes a user's API key or active
 * flag: the auth cache drops the user at once. Returns the function that unsubscribes.
 */
export function onUserCredentialsChange(listener: CredentialsListener): () => void {
  credentialsListeners.add(listener);
  return () => credentialsListeners.delete(listener);
}

/** Tells every listener that this user's credentials changed (also for writes made outside UsersRepo). */
export function notifyUserCredentialsChange(userId: number): void {
  for (const listener of credentialsListeners) listener(userId);
}

export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  shortName: string;
  passwordHash: string | null;
  apiKey: string;
  role: RoleValue;
  isBot: boolean;
  botType: BotTypeValue | null;
  botOwnerId: number | null;
  dateJoinedMs: number;
  timezone?: string;
  defaultSendingStream?: string | null;
  defaultEventsRegisterStream?: string | null;
  defaultAllPublicStreams?: boolean;
}

/** Users, bots, the realm row, custom profile fields and bot services. */
export class UsersRepo {
  constructor(private readonly db: Queryable) {}

  async getRealm(): Promise<Realm | undefined> {
    const r = await this.db.get<{
      id: number;
      string_id: string;
      name: string;
      description: string;
      notifications_stream_id: number | null;
      moderation_request_channel_id: number | null;
      topics_policy: string;
      date_created: number;
    }>("SELECT * FROM realms ORDER BY id LIMIT 1");
    return r
      ? {
          id: r.id,
          stringId: r.string_id,
          name: r.name,
          description: r.description,
          notificationsStreamId: r.notifications_stream_id,
          moderationRequestChannelId:
            r.moderation_request_channel_id === null ? null : Number(r.moderation_request_channel_id),
          topicsPolicy: r.topics_policy === "allow_empty_topic" ? "allow_empty_topic" : "disable_empty_topic",
          dateCreated: r.date_created,
        }
      : undefined;
  }

  async createRealm(
    stringId: string,
    name: string,
    description: string,
    dateCreated: number,
  ): Promise<number> {
    const row = await this.db.get<{ id: number }>(
      "INSERT INTO realms (string_id, name, description, date_created) VALUES (?, ?, ?, ?) RETURNING id",
      [stringId, name, description, dateCreated],
    );
    return row!.id;
  }

  async setRealmNotificationsStream(realmId: number, streamId: number | null): Promise<void> {
    await this.db.run("UPDATE realms SET notifications_stream_id = ? WHERE id = ?", [streamId, realmId]);
  }

  async setRealmModerationRequestChannel(realmId: number, channelId: number | null): Promise<void> {
    await this.db.run("UPDATE realms SET moderation_request_channel_id = ? WHERE id = ?", [
      channelId,
      realmId,
    ]);
  }

  async setRealmName(realmId: number, name: string): Promise<void> {
    await this.db.run("UPDATE realms SET name = ? WHERE id = ?", [name, realmId]);
  }

  async setRealmDescription(realmId: number, description: string): Promise<void> {
    await this.db.run("UPDATE realms SET description = ? WHERE id = ?", [description, realmId]);
  }

  async setRealmTopicsPolicy(realmId: number, policy: RealmTopicsPolicy): Promise<void> {
    await this.db.run("UPDATE realms SET topics_policy = ? WHERE id = ?", [policy, realmId]);
  }

  /**
   * The new user, or undefined when the email is taken (also by a request that checked at the same
   * time as this one: the insert itself decides).
   */
  async insertUser(u: NewUser): Promise<User | undefined> {
    const row = await this.db.get<UserRow>(
      `INSERT INTO users (realm_id, email, email_lower, full_name, short_name, password_hash, api_key, api_key_hash, role, is_bot, bot_type, bot_owner_id, timezone, date_joined_ms, default_sending_stream, default_events_register_stream, default_all_public_streams)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (email_lower) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [
        u.realmId,
        u.email,
        u.email.toLowerCase(),
        u.fullName,
        u.shortName,
        u.passwordHash,
        u.apiKey,
        apiKeyLookupId(u.apiKey),
        u.role,
        sqlBool(u.isBot),
        u.botType,
        u.botOwnerId,
        u.timezone ?? "",
        u.dateJoinedMs,
        u.defaultSendingStream ?? null,
        u.defaultEventsRegisterStream ?? null,
        sqlBool(u.defaultAllPublicStreams ?? false),
      ],
    );
    return row === undefined ? undefined : toUser(row);
  }

  async byId(id: number): Promise<User | undefined> {
    const r = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
    return r ? toUser(r) : undefined;
  }

  async byEmail(email: string): Promise<User | undefined> {
    const r = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email_lower = ?`, [
      email.toLowerCase(),
    ]);
    return r ? toUser(r) : undefined;
  }

  /**
   * The user whose key has this lookup id (the caller compares the key itself in constant time).
   * Rows written before migration 007 (or by code that bypasses insertUser) get their lookup id
   * filled in on the first miss.
   */
  async byApiKey(apiKey: string): Promise<User | undefined> {
    const id = apiKeyLookupId(apiKey);
    const sql = `SELECT ${USER_COLUMNS} FROM users WHERE api_key_hash = ?`;
    const r = await this.db.get<UserRow>(sql, [id]);
    if (r !== undefined) return toUser(r);
    if (!(await this.fillApiKeyHashes())) return undefined;
    const again = await this.db.get<UserRow>(sql, [id]);
    return again ? toUser(again) : undefined;
  }

  /** Computes missing api_key_hash values; true when there were any. */
  async fillApiKeyHashes(): Promise<boolean> {
    const missing = await this.db.all<{ id: number; api_key: string }>(
      "SELECT id, api_key FROM users WHERE api_key_hash IS NULL",
    );
    for (const row of missing) {
      await this.db.run("UPDATE users SET api_key_hash = ? WHERE id = ?", [
        apiKeyLookupId(row.api_key),
        row.id,
      ]);
    }
    return missing.length > 0;
  }

  async passwordHash(userId: number): Promise<string | null> {
    const r = await this.db.get<{ password_hash: string | null }>(
      "SELECT password_hash FROM users WHERE id = ?",
      [userId],
    );
    return r?.password_hash ?? null;
  }

  async all(): Promise<User[]> {
    return (await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`)).map(toUser);
  }

  /** The ids of the active users (bots included), ascending. */
  async activeIds(): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>("SELECT id FROM users WHERE is_active = 1 ORDER BY id");
    return rows.map((r) => Number(r.id));
  }

  /** The emails of the users among `ids` (one statement whatever their number). */
  async emailsOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.all<{ id: number; email: string }>(
      `SELECT id, email FROM users WHERE id IN ${jsonIdsIn(this.db)}`,
      [JSON.stringify(ids)],
    );
    return new Map(rows.map((r) => [Number(r.id), r.email]));
  }

  async botsOwnedBy(ownerId: number): Promise<User[]> {
    return (
      await this.db.all<UserRow>(
        `SELECT ${USER_COLUMNS} FROM users WHERE bot_owner_id = ? AND is_bot = 1 ORDER BY id`,
        [ownerId],
      )
    ).map(toUser);
  }

  async setActive(userId: number, active: boolean): Promise<void> {
    await this.db.run("UPDATE users SET is_active = ? WHERE id = ?", [sqlBool(active), userId]);
    notifyUserCredentialsChange(userId);
  }

  async setApiKey(userId: number, apiKey: string): Promise<void> {
    await this.db.run("UPDATE users SET api_key = ?, api_key_hash = ? WHERE id = ?", [
      apiKey,
      apiKeyLookupId(apiKey),
      userId,
    ]);
    notifyUserCredentialsChange(userId);
  }

  async setPasswordHash(userId: number, hash: string): Promise<void> {
    await this.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [hash, userId]);
  }

  async fullNameTaken(fullName: string): Promise<boolean> {
    const r = await this.db.get<{ id: number }>(
      "SELECT id FROM users WHERE lower(full_name) = lower(?) AND is_active = 1 LIMIT 1",
      [fullName],
    );
    return r !== undefined;
  }

  /**
   * A number that changes (in the same transaction) whenever a user's email, name or activity, a
   * custom profile field or a value of one changes (migration 115's triggers): what a directory of
   * users built for webhooks depends on.
   */
  async directoryVersion(): Promise<number> {
    const r = await this.db.get<{ version: number }>(
      "SELECT version FROM user_directory_version WHERE id = 1",
    );
    return Number(r?.version ?? 0);
  }

  // Custom profile fields

  async profileFields(): Promise<CustomProfileField[]> {
    const rows = await this.db.all<{
      id: number;
      name: string;
      hint: string;
      field_type: number;
      field_data: string;
      display_order: number;
    }>("SELECT * FROM custom_profile_fields ORDER BY display_order, id");
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      hint: r.hint,
      fieldType: r.field_type,
      fieldData: r.field_data,
      order: r.display_order,
    }));
  }

  async insertProfileField(
    realmId: number,
    f: { name: string; hint: string; fieldType: number; fieldData: string },
  ): Promise<number | undefined> {
    const next = await this.db.get<{ n: number | null }>(
      "SELECT MAX(display_order) AS n FROM custom_profile_fields",
    );
    // Undefined when the realm has a field with this label (written by a request at the same time).
    const row = await this.db.get<{ id: number }>(
      `INSERT INTO custom_profile_fields (realm_id, name, hint, field_type, field_data, display_order) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (realm_id, name) DO NOTHING RETURNING id`,
      [realmId, f.name, f.hint, f.fieldType, f.fieldData, (next?.n ?? 0) + 1],
    );
    return row === undefined ? undefined : Number(row.id);
  }

  async updateProfileField(id: number, f: { name: string; hint: string; fieldData: string }): Promise<void> {
    await this.db.run("UPDATE custom_profile_fields SET name = ?, hint = ?, field_data = ? WHERE id = ?", [
      f.name,
      f.hint,
      f.fieldData,
      id,
    ]);
  }

  /** Deletes the field and every user's value of it. */
  async deleteProfileField(id: number): Promise<void> {
    await this.db.run("DELETE FROM custom_profile_field_values WHERE field_id = ?", [id]);
    await this.db.run("DELETE FROM custom_profile_fields WHERE id = ?", [id]);
  }

  async setProfileFieldOrder(ids: readonly number[]): Promise<void> {
    for (const [i, id] of ids.entries()) {
      await this.db.run("UPDATE custom_profile_fields SET display_order = ? WHERE id = ?", [i + 1, id]);
    }
  }

  async profileValues(userIds: readonly number[] | null): Promise<Map<number, Map<number, ProfileValue>>> {
    const rows = await this.db.all<{
      user_id: number;
      field_id: number;
      value: string;
      rendered_value: string | null;
    }>("SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values");
    const wanted = userIds === null ? null : new Set(userIds);
    const out = new Map<number, Map<number, ProfileValue>>();
    for (const r of rows) {
      if (wanted !== null && !wanted.has(r.user_id)) continue;
      let m = out.get(r.user_id);
      if (m === undefined) out.set(r.user_id, (m = new Map<number, ProfileValue>()));
      m.set(r.field_id, { value: r.value, renderedValue: r.rendered_value });
    }
    return out;
  }

  async setProfileValue(
    userId: number,
    fieldId: number,
    value: string,
    renderedValue: string | null,
  ): Promise<void> {
    await this.db.run(
      `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
      [userId, fieldId, value, renderedValue],
    );
  }

  async deleteProfileValue(userId: number, fieldId: number): Promise<void> {
    await this.db.run("DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?", [
      userId,
      fieldId,
    ]);
  }

  // Bot services (outgoing webhooks) and settings

  async insertService(s: Omit<BotService, "id">): Promise<BotService> {
    const row = await this.db.get<{ id: number }>(
      "INSERT INTO bot_services (bot_id, name, base_url, interface, token) VALUES (?, ?, ?, ?, ?) RETURNING id",
      [s.botId, s.name, s.baseUrl, s.interface, s.token],
    );
    return { ...s, id: row!.id };
  }

  async servicesOf(botId: number): Promise<BotService[]> {
    const rows = await this.db.all<{
      id: number;
      bot_id: number;
      name: string;
      base_url: string;
      interface: number;
      token: string;
    }>("SELECT * FROM bot_services WHERE bot_id = ? ORDER BY id", [botId]);
    return rows.map((r) => ({
      id: r.id,
      botId: r.bot_id,
      name: r.name,
      baseUrl: r.base_url,
      interface: r.interface,
      token: r.token,
    }));
  }

  async botConfig(botId: number): Promise<Record<string, string>> {
    const rows = await this.db.all<{ key: string; value: string }>(
      "SELECT key, value FROM bot_config WHERE bot_id = ? ORDER BY key",
      [botId],
    );
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async setBotConfig(botId: number, entries: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(entries)) {
      await this.db.run(
        `INSERT INTO bot_config (bot_id, key, value) VALUES (?, ?, ?)
         ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value`,
        [botId, key, value],
      );
    }
  }

  async userSettings(userId: number): Promise<Record<string, unknown>> {
    const r = await this.db.get<{ settings: string }>(
      "SELECT settings FROM user_settings WHERE user_id = ?",
      [userId],
    );
    return r ? (JSON.parse(r.settings) as Record<string, unknown>) : {};
  }

  async saveUserSettings(userId: number, settings: Record<string, unknown>): Promise<void> {
    await this.db.run(
      `INSERT INTO user_settings (user_id, settings) VALUES (?, ?)
       ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings`,
      [userId, JSON.stringify(settings)],
    );
  }
}
