/**
 * Helpers of the messaging test suites: streams and subscriptions written straight to the store
 * (no Notification Bot notices, so message ids stay predictable), an event recorder, and the
 * literal parts of expected message dicts.
 */
import { ManualClock } from "../../src/clock.js";
import type { EventRecipient, ZulipEvent } from "../../src/domain/events/event-sink.js";
import { StreamsRepo } from "../../src/store/streams-repo.js";
import { freshPostgresSchema } from "../helpers/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

/** 2026-01-01T00:00:00Z, the ManualClock's start, in unix seconds. */
export const T0 = 1767225600;

export const AVATAR = {
  iago: "https://secure.gravatar.com/avatar/af4f06322c177ef4e1e9b2c424986b54?d=identicon&version=1",
  hamlet: "https://secure.gravatar.com/avatar/6d8cad0fd00256e7b40691d27ddfd466?d=identicon&version=1",
  othello: "https://secure.gravatar.com/avatar/23f350365c96af9aaf864778f4728375?d=identicon&version=1",
  cordelia: "https://secure.gravatar.com/avatar/77c3871a68c8d70356156029fd0a4999?d=identicon&version=1",
  polonius: "https://secure.gravatar.com/avatar/32f1c18f22a1f1b1740e9ced2c1f0c94?d=identicon&version=1",
  webhookBot: "https://secure.gravatar.com/avatar/908ae87048d784a769dcc8f0984129ae?d=identicon&version=1",
} as const;

export interface MessagingServer extends TestServer {
  clock: ManualClock;
}

/**
 * A test server with a ManualClock. With MESSAGES_TEST_POSTGRES=1 the store is a fresh PostgreSQL
 * schema (dropped on close), so every messaging suite can be run against both dialects.
 */
export async function startMessagingServer(): Promise<MessagingServer> {
  const clock = new ManualClock();
  if (process.env["MESSAGES_TEST_POSTGRES"] === "1") {
    const schema = await freshPostgresSchema();
    const server = await startTestServer({ clock, config: { databaseUrl: schema.url } });
    const close = server.close.bind(server);
    return Object.assign(server, {
      clock,
      close: async () => {
        await close();
        await schema.drop();
      },
    });
  }
  const server = await startTestServer({ clock });
  return Object.assign(server, { clock });
}

export interface StreamOptions {
  inviteOnly?: boolean;
  historyPublicToSubscribers?: boolean;
  isAnnouncementOnly?: boolean;
}

/** Creates a stream (no events, no notices) and subscribes `subscribers`; returns its id. */
export async function createStream(
  server: TestServer,
  name: string,
  subscribers: readonly TestUser[],
  opts: StreamOptions = {},
): Promise<number> {
  const repo = new StreamsRepo(server.running.db);
  const realmId = (await server.running.services.users.realm()).id;
  const inviteOnly = opts.inviteOnly ?? false;
  const stream = await repo.insert({
    realmId,
    name,
    description: "",
    renderedDescription: "",
    inviteOnly,
    historyPublicToSubscribers: opts.historyPublicToSubscribers ?? !inviteOnly,
    isAnnouncementOnly: opts.isAnnouncementOnly ?? false,
    isDefault: false,
    dateCreated: T0,
    creatorId: null,
  });
  if (stream === undefined) throw new Error(`stream ${name} exists already`);
  for (const user of subscribers) await repo.activate(user.id, stream.id, "#76ce90", T0);
  return stream.id;
}

export async function subscribe(server: TestServer, streamId: number, user: TestUser): Promise<void> {
  await new StreamsRepo(server.running.db).activate(user.id, streamId, "#76ce90", T0);
}

export async function unsubscribe(server: TestServer, streamId: number, user: TestUser): Promise<void> {
  await new StreamsRepo(server.running.db).deactivate(user.id, streamId);
}

export async function muteTopic(
  server: TestServer,
  user: TestUser,
  streamId: number,
  topic: string,
): Promise<void> {
  await new StreamsRepo(server.running.db).muteTopic(user.id, streamId, topic, T0);
}

/** Sends through the API and returns the new id (fails the test on an error). */
export async function send(
  server: TestServer,
  as: TestUser,
  params: Record<string, string | number | boolean | object>,
): Promise<number> {
  const res = await server.api.post("/api/v1/messages", { as, params });
  if (res.status !== 200) throw new Error(`send failed: ${res.status} ${res.text}`);
  return res.body.id as number;
}

export interface Published {
  event: ZulipEvent;
  recipients: (number | EventRecipient)[];
}

/** Records every event published from now on (still delivering it). */
export function recordEvents(server: TestServer): Published[] {
  const sink = server.running.services.events;
  const original = sink.send.bind(sink);
  const log: Published[] = [];
  sink.send = (event, recipients) => {
    const list = [...recipients];
    log.push({ event, recipients: list });
    original(event, list);
  };
  return log;
}

/** A private message's display_recipient entry, written out. */
export function pmUser(u: TestUser, shortName: string): Record<string, unknown> {
  return { email: u.email, full_name: u.fullName, id: u.id, short_name: shortName, is_mirror_dummy: false };
}

type Cast = "iago" | "hamlet" | "othello" | "cordelia" | "polonius" | "webhookBot";

const SHORT: Record<Cast, string> = {
  iago: "iago",
  hamlet: "hamlet",
  othello: "othello",
  cordelia: "cordelia",
  polonius: "polonius",
  webhookBot: "webhook-bot",
};

/** The expected dict of a stream message in GET /messages (every field written out). */
export function expectedStreamMessage(
  server: TestServer,
  p: {
    id: number;
    sender: Cast;
    content: string;
    topic: string;
    stream: string;
    streamId: number;
    recipientId: number;
    flags?: string[];
    timestamp?: number;
    client?: string;
    contentType?: string;
    avatarUrl?: string | null;
  },
): Record<string, unknown> {
  const sender = server.users[p.sender];
  return {
    id: p.id,
    sender_id: sender.id,
    content: p.content,
    recipient_id: p.recipientId,
    timestamp: p.timestamp ?? T0,
    client: p.client ?? "node",
    subject: p.topic,
    subject_links: [],
    topic_links: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_short_name: SHORT[p.sender],
    sender_realm_str: "zulip",
    display_recipient: p.stream,
    type: "stream",
    stream_id: p.streamId,
    avatar_url: p.avatarUrl === undefined ? AVATAR[p.sender] : p.avatarUrl,
    content_type: p.contentType ?? "text/html",
    ...(p.flags === undefined ? {} : { flags: p.flags }),
  };
}

/** The expected dict of a private message; `to` are all participants (any order). */
export function expectedPrivateMessage(
  server: TestServer,
  p: {
    id: number;
    sender: Cast;
    to: Cast[];
    content: string;
    recipientId: number;
    flags?: string[];
    timestamp?: number;
    client?: string;
  },
): Record<string, unknown> {
  const sender = server.users[p.sender];
  const participants = [...new Set([p.sender, ...p.to])]
    .map((c) => ({ c, u: server.users[c] }))
    .sort((a, b) => a.u.id - b.u.id)
    .map(({ c, u }) => pmUser(u, SHORT[c]));
  return {
    id: p.id,
    sender_id: sender.id,
    content: p.content,
    recipient_id: p.recipientId,
    timestamp: p.timestamp ?? T0,
    client: p.client ?? "node",
    subject: "",
    subject_links: [],
    topic_links: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
    sender_full_name: sender.fullName,
    sender_email: sender.email,
    sender_short_name: SHORT[p.sender],
    sender_realm_str: "zulip",
    display_recipient: participants,
    type: "private",
    avatar_url: AVATAR[p.sender],
    content_type: "text/html",
    ...(p.flags === undefined ? {} : { flags: p.flags }),
  };
}

/**
 * Adds `n` users subscribed to the stream with multi-row INSERTs straight into the store (creating
 * them through the API would hash n passwords). Returns their ids.
 */
export async function addBulkSubscribers(server: TestServer, streamId: number, n: number): Promise<number[]> {
  const db = server.running.db;
  const realmId = (await server.running.services.users.realm()).id;
  const ids: number[] = [];
  await db.transaction(async (tx) => {
    const chunk = 1000;
    for (let start = 0; start < n; start += chunk) {
      const rows: (string | number)[] = [];
      const count = Math.min(chunk, n - start);
      for (let i = start; i < start + count; i++) {
        const email = `bulk${i}@zulip.com`;
        rows.push(
          realmId,
          email,
          email,
          `Bulk User ${i}`,
          `bulk${i}`,
          `bulkkey${String(i).padStart(24, "0")}`,
          T0 * 1000,
        );
      }
      const inserted = await tx.all<{ id: number }>(
        `INSERT INTO users (realm_id, email, email_lower, full_name, short_name, api_key, date_joined_ms)
         VALUES ${new Array(count).fill("(?, ?, ?, ?, ?, ?, ?)").join(", ")} RETURNING id`,
        rows,
      );
      const userIds = inserted.map((r) => Number(r.id));
      ids.push(...userIds);
      await tx.run(
        `INSERT INTO subscriptions (user_id, stream_id, active, color, date_subscribed)
         VALUES ${userIds.map(() => "(?, ?, 1, '#76ce90', ?)").join(", ")}`,
        userIds.flatMap((id) => [id, streamId, T0]),
      );
    }
  });
  return ids;
}
