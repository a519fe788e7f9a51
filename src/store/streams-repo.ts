import type { Queryable, SqlValue } from "./db.js";
import { jsonIdsIn, sqlBool } from "./db.js";
import { STREAM_TOPICS_POLICIES } from "../domain/streams/types.js";
import type {
  MutedTopic,
  Stream,
  StreamGroupSettings,
  StreamTopicsPolicy,
  Subscription,
} from "../domain/streams/types.js";
import { STREAM_PERMISSION_NAMES, storedValue } from "../domain/user-groups/group-settings.js";

interface StreamRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  history_public_to_subscribers: number;
  is_announcement_only: number;
  is_web_public: number;
  is_default: number;
  date_created: number;
  creator_id: number | null;
  first_message_id: number | null;
  deactivated: number;
  can_send_message_group: string | null;
  can_add_subscribers_group: string | null;
  can_remove_subscribers_group: string | null;
  can_administer_channel_group: string | null;
  can_subscribe_group: string | null;
  topics_policy: string;
}

interface SubscriptionRow {
  user_id: number;
  stream_id: number;
  active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
  date_subscribed: number;
}

const STREAM_COLUMNS =
  "id, realm_id, name, description, rendered_description, invite_only, history_public_to_subscribers, is_announcement_only, is_web_public, is_default, date_created, creator_id, first_message_id, deactivated, can_send_message_group, can_add_subscribers_group, can_remove_subscribers_group, can_administer_channel_group, can_subscribe_group, topics_policy";
const SUB_COLUMNS =
  "user_id, stream_id, active, color, is_muted, pin_to_top, desktop_notifications, audible_notifications, push_notifications, email_notifications, wildcard_mentions_notify, date_subscribed";

function toStream(r: StreamRow): Stream {
  return {
    id: Number(r.id),
    realmId: Number(r.realm_id),
    name: r.name,
    description: r.description,
    renderedDescription: r.rendered_description,
    inviteOnly: r.invite_only === 1,
    historyPublicToSubscribers: r.history_public_to_subscribers === 1,
    isAnnouncementOnly: r.is_announcement_only === 1,
    isWebPublic: r.is_web_public === 1,
    isDefault: r.is_default === 1,
    dateCreated: Number(r.date_created),
    creatorId: r.creator_id === null ? null : Number(r.creator_id),
    firstMessageId: r.first_message_id === null ? null : Number(r.first_message_id),
    isArchived: Number(r.deactivated) === 1,
    groupSettings: groupSettingsOf(r),
    topicsPolicy: (STREAM_TOPICS_POLICIES as readonly string[]).includes(r.topics_policy)
      ? (r.topics_policy as StreamTopicsPolicy)
      : "inherit",
  };
}

function groupSettingsOf(r: StreamRow): StreamGroupSettings {
  const out: StreamGroupSettings = {};
  for (const name of STREAM_PERMISSION_NAMES) {
    const value = storedValue(r[name]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const nullableBool = (v: number | null): boolean | null => (v === null ? null : v === 1);

function toSubscription(r: SubscriptionRow): Subscription {
  return {
    userId: Number(r.user_id),
    streamId: Number(r.stream_id),
    active: r.active === 1,
    color: r.color,
    isMuted: r.is_muted === 1,
    pinToTop: r.pin_to_top === 1,
    desktopNotifications: nullableBool(r.desktop_notifications),
    audibleNotifications: nullableBool(r.audible_notifications),
    pushNotifications: nullableBool(r.push_notifications),
    emailNotifications: nullableBool(r.email_notifications),
    wildcardMentionsNotify: nullableBool(r.wildcard_mentions_notify),
    dateSubscribed: Number(r.date_subscribed),
  };
}

export interface NewStream {
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isAnnouncementOnly: boolean;
  isDefault: boolean;
  dateCreated: number;
  /** The user who created it (null: made by the server, as "general"). */
  creatorId: number | null;
}

/** Stored subscription columns that POST /users/me/subscriptions/properties may change. */
export type SubscriptionColumn =
  | "color"
  | "is_muted"
  | "pin_to_top"
  | "desktop_notifications"
  | "audible_notifications"
  | "push_notifications"
  | "email_notifications"
  | "wildcard_mentions_notify";

/** Streams, subscriptions and muted topics. */
export class StreamsRepo {
  constructor(private readonly db: Queryable) {}

  async byId(id: number): Promise<Stream | undefined> {
    const r = await this.db.get<StreamRow>(`SELECT ${STREAM_COLUMNS} FROM streams WHERE id = ?`, [id]);
    return r ? toStream(r) : undefined;
  }

  async byName(name: string): Promise<Stream | undefined> {
    const r = await this.db.get<StreamRow>(`SELECT ${STREAM_COLUMNS} FROM streams WHERE name_lower = ?`, [
      name.toLowerCase(),
    ]);
    return r ? toStream(r) : undefined;
  }

  async byIds(ids: readonly number[]): Promise<Stream[]> {
    if (ids.length === 0) return [];
    return (
      await this.db.all<StreamRow>(
        `SELECT ${STREAM_COLUMNS} FROM streams WHERE id IN ${jsonIdsIn(this.db)} ORDER BY id`,
        [JSON.stringify(ids)],
      )
    ).map(toStream);
  }

  async all(): Promise<Stream[]> {
    return (
      await this.db.all<StreamRow>(`SELECT ${STREAM_COLUMNS} FROM streams WHERE deactivated = 0 ORDER BY id`)
    ).map(toStream);
  }

  /** Every stream, archived ones too, ascending by id. */
  async allWithArchived(): Promise<Stream[]> {
    return (await this.db.all<StreamRow>(`SELECT ${STREAM_COLUMNS} FROM streams ORDER BY id`)).map(toStream);
  }

  /** The new stream, or undefined when one of this name exists (created by a request at the same time). */
  async insert(s: NewStream): Promise<Stream | undefined> {
    const r = await this.db.get<StreamRow>(
      `INSERT INTO streams (realm_id, name, name_lower, description, rendered_description, invite_only, history_public_to_subscribers, is_announcement_only, is_default, date_created, creator_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name_lower) DO NOTHING RETURNING ${STREAM_COLUMNS}`,
      [
        s.realmId,
        s.name,
        s.name.toLowerCase(),
        s.description,
        s.renderedDescription,
        sqlBool(s.inviteOnly),
        sqlBool(s.historyPublicToSubscribers),
        sqlBool(s.isAnnouncementOnly),
        sqlBool(s.isDefault),
        s.dateCreated,
        s.creatorId,
      ],
    );
    return r === undefined ? undefined : toStream(r);
  }

  /** Records the stream's first message id when it has none yet. */
  async noteMessage(streamId: number, messageId: number): Promise<void> {
    await this.db.run("UPDATE streams SET first_message_id = ? WHERE id = ? AND first_message_id IS NULL", [
      messageId,
      streamId,
    ]);
  }

  async setFirstMessageId(streamId: number, messageId: number | null): Promise<void> {
    await this.db.run("UPDATE streams SET first_message_id = ? WHERE id = ?", [messageId, streamId]);
  }

  // Subscriptions

  /** The user's subscription row to the stream, active or not. */
  async subscription(userId: number, streamId: number): Promise<Subscription | undefined> {
    const r = await this.db.get<SubscriptionRow>(
      `SELECT ${SUB_COLUMNS} FROM subscriptions WHERE user_id = ? AND stream_id = ?`,
      [userId, streamId],
    );
    return r ? toSubscription(r) : undefined;
  }

  async activeSubscriptionsOf(userId: number): Promise<Subscription[]> {
    return (
      await this.db.all<SubscriptionRow>(
        `SELECT ${SUB_COLUMNS} FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id`,
        [userId],
      )
    ).map(toSubscription);
  }

  /** Every colour of the user's subscription rows (active or not), for picking a new one. */
  async colorsOf(userId: number): Promise<string[]> {
    return (
      await this.db.all<{ color: string }>("SELECT color FROM subscriptions WHERE user_id = ?", [userId])
    ).map((r) => r.color);
  }

  /** The next message's lowest possible id: where a subscription interval starts or ends. */
  private async nextMessageId(): Promise<number> {
    const r = await this.db.get<{ m: number | null }>("SELECT MAX(id) AS m FROM messages");
    return (r?.m == null ? 0 : Number(r.m)) + 1;
  }

  /**
   * Activates (or creates) the subscription; an existing row keeps its colour and settings. A new
   * subscription interval starts at the next message (it continues the last closed one when no
   * message came in between); a new row's read watermark is just below it. False when it was
   * active already, also when a concurrent transaction activated it first.
   */
  async activate(userId: number, streamId: number, color: string, now: number): Promise<boolean> {
    const existing = await this.db.get<{ active: number }>(
      "SELECT active FROM subscriptions WHERE user_id = ? AND stream_id = ?",
      [userId, streamId],
    );
    if (existing?.active === 1) return false;
    const next = await this.nextMessageId();
    let from = next;
    const adjacent = await this.db.get<{ from_id: number }>(
      "SELECT from_id FROM subscription_intervals WHERE user_id = ? AND stream_id = ? AND to_id = ?",
      [userId, streamId, next],
    );
    if (adjacent !== undefined) {
      from = Number(adjacent.from_id);
      await this.db.run(
        "DELETE FROM subscription_intervals WHERE user_id = ? AND stream_id = ? AND from_id = ?",
        [userId, streamId, from],
      );
    }
    // A concurrent transaction may have activated it since the read above (PostgreSQL: the insert
    // waits for its commit, then the WHERE sees its row): then nothing changes and nothing returns.
    const activated = await this.db.get<{ user_id: number }>(
      `INSERT INTO subscriptions (user_id, stream_id, active, color, date_subscribed, active_from, read_upto)
       VALUES (?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (user_id, stream_id) DO UPDATE SET active = 1, active_from = excluded.active_from
       WHERE subscriptions.active = 0
       RETURNING user_id`,
      [userId, streamId, color, now, from, next - 1],
    );
    return activated !== undefined;
  }

  /** Ends the subscription: its interval is kept closed (what the user received stays theirs). */
  async deactivate(userId: number, streamId: number): Promise<void> {
    await this.closeIntervals("user_id = ? AND stream_id = ?", [userId, streamId]);
    await this.db.run("UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?", [
      userId,
      streamId,
    ]);
  }

  /** Records the closed interval of each active subscription matching `where` (when not empty). */
  private async closeIntervals(where: string, params: SqlValue[]): Promise<void> {
    const next = await this.nextMessageId();
    await this.db.run(
      `INSERT INTO subscription_intervals (user_id, stream_id, from_id, to_id)
       SELECT user_id, stream_id, active_from, ? FROM subscriptions
       WHERE ${where} AND active = 1 AND active_from < ?
       ON CONFLICT (user_id, stream_id, from_id) DO UPDATE SET to_id = excluded.to_id`,
      [next, ...params, next],
    );
  }

  async setProperty(
    userId: number,
    streamId: number,
    column: SubscriptionColumn,
    value: string | boolean,
  ): Promise<void> {
    await this.db.run(`UPDATE subscriptions SET ${column} = ? WHERE user_id = ? AND stream_id = ?`, [
      typeof value === "boolean" ? sqlBool(value) : value,
      userId,
      streamId,
    ]);
  }

  async isSubscribed(userId: number, streamId: number): Promise<boolean> {
    const r = await this.db.get<{ active: number }>(
      "SELECT active FROM subscriptions WHERE user_id = ? AND stream_id = ?",
      [userId, streamId],
    );
    return r?.active === 1;
  }

  /**
   * Active subscribers who are active users, ascending: the covering index `subscriptions_stream`,
   * less the few deactivated users (partial index `users_inactive`), without a lookup per user.
   */
  async subscriberIds(streamId: number): Promise<number[]> {
    // One row with the ids joined by commas: 10,000 row objects cost ~5× more than one string.
    // On SQLite, deactivated users are read apart (few, through the partial index users_inactive)
    // and subtracted here: a `NOT IN` subquery made the index-only scan ~40 % slower at 10,000
    // (PostgreSQL keeps the one query: a second one is a second round trip).
    const sqlite = this.db.dialect === "sqlite";
    const active = "SELECT user_id FROM subscriptions WHERE stream_id = ? AND active = 1";
    const ids = sqlite ? active : `${active} AND user_id NOT IN (SELECT id FROM users WHERE is_active = 0)`;
    const r = await this.db.get<{ ids: string | null }>(
      sqlite
        ? `SELECT group_concat(user_id) AS ids FROM (${ids} ORDER BY user_id)`
        : `SELECT string_agg(user_id::text, ',' ORDER BY user_id) AS ids FROM (${ids}) AS s`,
      [streamId],
    );
    if (r?.ids == null || r.ids === "") return [];
    let out = r.ids.split(",").map(Number);
    const inactive = sqlite
      ? await this.db.all<{ id: number }>("SELECT id FROM users WHERE is_active = 0")
      : [];
    if (inactive.length > 0) {
      const gone = new Set(inactive.map((u) => Number(u.id)));
      out = out.filter((id) => !gone.has(id));
    }
    for (let i = 1; i < out.length; i++) {
      if (out[i]! < out[i - 1]!) return out.sort((a, b) => a - b);
    }
    return out;
  }

  /** subscriberIds for several streams at once. */
  async subscriberIdsOf(streamIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
    if (streamIds.length === 0) return out;
    const rows = await this.db.all<{ stream_id: number; user_id: number }>(
      `SELECT s.stream_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.stream_id IN ${jsonIdsIn(this.db)} AND s.active = 1 AND u.is_active = 1
       ORDER BY s.user_id`,
      [JSON.stringify(streamIds)],
    );
    for (const r of rows) out.get(Number(r.stream_id))?.push(Number(r.user_id));
    return out;
  }

  async subscribedStreamIds(userId: number): Promise<number[]> {
    return (
      await this.db.all<{ stream_id: number }>(
        "SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1 ORDER BY stream_id",
        [userId],
      )
    ).map((r) => Number(r.stream_id));
  }

  // Muted topics

  async isTopicMuted(userId: number, streamId: number, topic: string): Promise<boolean> {
    const r = await this.db.get<{ n: number }>(
      "SELECT 1 AS n FROM muted_topics WHERE user_id = ? AND stream_id = ? AND topic_lower = ?",
      [userId, streamId, topic.toLowerCase()],
    );
    return r !== undefined;
  }

  /** [stream name, topic, date muted], oldest first. */
  async mutedTopics(userId: number): Promise<MutedTopic[]> {
    const rows = await this.db.all<{ name: string; topic: string; date_muted: number }>(
      `SELECT s.name, m.topic, m.date_muted FROM muted_topics m JOIN streams s ON s.id = m.stream_id
       WHERE m.user_id = ? ORDER BY m.date_muted, s.id, m.topic_lower`,
      [userId],
    );
    return rows.map((r) => [r.name, r.topic, Number(r.date_muted)]);
  }

  /** The user's muted topics as (stream id, lower-cased topic) pairs. */
  async mutedTopicKeys(userId: number): Promise<{ streamId: number; topicLower: string }[]> {
    const rows = await this.db.all<{ stream_id: number; topic_lower: string }>(
      "SELECT stream_id, topic_lower FROM muted_topics WHERE user_id = ?",
      [userId],
    );
    return rows.map((r) => ({ streamId: Number(r.stream_id), topicLower: r.topic_lower }));
  }

  async muteTopic(userId: number, streamId: number, topic: string, now: number): Promise<void> {
    await this.db.run(
      // Muted already (by a request at the same time): it stays as it was.
      "INSERT INTO muted_topics (user_id, stream_id, topic_lower, topic, date_muted) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      [userId, streamId, topic.toLowerCase(), topic, now],
    );
  }

  /** Returns whether a row was removed. */
  async unmuteTopic(userId: number, streamId: number, topic: string): Promise<boolean> {
    const r = await this.db.run(
      "DELETE FROM muted_topics WHERE user_id = ? AND stream_id = ? AND topic_lower = ?",
      [userId, streamId, topic.toLowerCase()],
    );
    return r.changes > 0;
  }

  // Stream management

  /** Changes a stream's settings (PATCH /streams/{id}); returns the stream as now stored. */
  async update(id: number, fields: StreamUpdate): Promise<Stream> {
    const sets: string[] = [];
    const params: (string | number | null)[] = [];
    const set = (column: string, value: string | number) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (fields.name !== undefined) {
      set("name", fields.name);
      set("name_lower", fields.name.toLowerCase());
    }
    if (fields.description !== undefined) set("description", fields.description);
    if (fields.renderedDescription !== undefined) set("rendered_description", fields.renderedDescription);
    if (fields.inviteOnly !== undefined) set("invite_only", sqlBool(fields.inviteOnly));
    if (fields.historyPublicToSubscribers !== undefined) {
      set("history_public_to_subscribers", sqlBool(fields.historyPublicToSubscribers));
    }
    if (fields.isAnnouncementOnly !== undefined)
      set("is_announcement_only", sqlBool(fields.isAnnouncementOnly));
    if (fields.isDefault !== undefined) set("is_default", sqlBool(fields.isDefault));
    if (fields.deactivated !== undefined) set("deactivated", sqlBool(fields.deactivated));
    if (fields.topicsPolicy !== undefined) set("topics_policy", fields.topicsPolicy);
    for (const [name, value] of Object.entries(fields.groupSettings ?? {})) {
      if (!(STREAM_PERMISSION_NAMES as string[]).includes(name)) continue;
      sets.push(`${name} = ?`);
      params.push(value === null ? null : JSON.stringify(value));
    }
    if (sets.length > 0)
      await this.db.run(`UPDATE streams SET ${sets.join(", ")} WHERE id = ?`, [...params, id]);
    return (await this.byId(id))!;
  }

  /** Deactivates every subscription to the stream; returns the users who were subscribed. */
  async unsubscribeAll(streamId: number): Promise<number[]> {
    const ids = await this.subscriberIds(streamId);
    await this.closeIntervals("stream_id = ?", [streamId]);
    await this.db.run("UPDATE subscriptions SET active = 0 WHERE stream_id = ?", [streamId]);
    return ids;
  }

  /** Followed (3) and unmuted (2) topics: [stream id, topic, policy, last updated]. */
  async topicPolicies(
    userId: number,
  ): Promise<{ streamId: number; topic: string; policy: number; lastUpdated: number }[]> {
    const rows = await this.db.all<{
      stream_id: number;
      topic: string;
      visibility_policy: number;
      last_updated: number;
    }>(
      "SELECT stream_id, topic, visibility_policy, last_updated FROM user_topics WHERE user_id = ? ORDER BY last_updated, stream_id, topic_lower",
      [userId],
    );
    return rows.map((r) => ({
      streamId: Number(r.stream_id),
      topic: r.topic,
      policy: Number(r.visibility_policy),
      lastUpdated: Number(r.last_updated),
    }));
  }

  /** Sets (policy 2 or 3) or clears (undefined) a followed/unmuted topic. */
  async setTopicPolicy(
    userId: number,
    streamId: number,
    topic: string,
    policy: number | undefined,
    now: number,
  ): Promise<void> {
    if (policy === undefined) {
      await this.db.run("DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_lower = ?", [
        userId,
        streamId,
        topic.toLowerCase(),
      ]);
      return;
    }
    // One statement: two changes at once (two clients) each leave a whole row, the later one's.
    await this.db.run(
      `INSERT INTO user_topics (user_id, stream_id, topic_lower, topic, visibility_policy, last_updated)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, stream_id, topic_lower) DO UPDATE SET topic = excluded.topic,
         visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
      [userId, streamId, topic.toLowerCase(), topic, policy, now],
    );
  }

  /** The user's muted topics with stream ids: [stream id, topic, date muted]. */
  async mutedTopicRows(userId: number): Promise<{ streamId: number; topic: string; dateMuted: number }[]> {
    const rows = await this.db.all<{ stream_id: number; topic: string; date_muted: number }>(
      "SELECT stream_id, topic, date_muted FROM muted_topics WHERE user_id = ? ORDER BY date_muted, stream_id, topic_lower",
      [userId],
    );
    return rows.map((r) => ({
      streamId: Number(r.stream_id),
      topic: r.topic,
      dateMuted: Number(r.date_muted),
    }));
  }
}

/** The settings PATCH /streams/{id} and archiving change. */
export interface StreamUpdate {
  name?: string | undefined;
  description?: string | undefined;
  renderedDescription?: string | undefined;
  inviteOnly?: boolean | undefined;
  historyPublicToSubscribers?: boolean | undefined;
  isAnnouncementOnly?: boolean | undefined;
  isDefault?: boolean | undefined;
  deactivated?: boolean | undefined;
  topicsPolicy?: StreamTopicsPolicy | undefined;
  /** A value to store, or null: back to the default. */
  groupSettings?: Partial<
    Record<keyof StreamGroupSettings, StreamGroupSettings[keyof StreamGroupSettings] | null>
  >;
}
