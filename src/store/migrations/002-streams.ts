import type { Migration } from "./types.js";

/**
 * Streams, subscriptions and muted topics. `subscriptions_stream` is the covering index of message
 * fan-out (`subscriberIds`); `UNIQUE (user_id, stream_id)` serves per-user lookups. An unsubscribed
 * row is kept with `active = 0`, so colours and settings survive a resubscription, as in Zulip.
 */
export const streams: Migration = {
  id: "002-streams",
  up: (t) => `
CREATE TABLE streams (
  id ${t.id},
  realm_id ${t.bigint} NOT NULL REFERENCES realms(id),
  name TEXT NOT NULL,
  name_lower TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  invite_only INTEGER NOT NULL DEFAULT 0,
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1,
  is_announcement_only INTEGER NOT NULL DEFAULT 0,
  is_web_public INTEGER NOT NULL DEFAULT 0,
  is_default INTEGER NOT NULL DEFAULT 0,
  date_created ${t.bigint} NOT NULL,
  first_message_id ${t.bigint}
);
CREATE TABLE subscriptions (
  id ${t.id},
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  stream_id ${t.bigint} NOT NULL REFERENCES streams(id),
  active INTEGER NOT NULL DEFAULT 1,
  color TEXT NOT NULL DEFAULT '#c2c2c2',
  is_muted INTEGER NOT NULL DEFAULT 0,
  pin_to_top INTEGER NOT NULL DEFAULT 0,
  desktop_notifications INTEGER,
  audible_notifications INTEGER,
  push_notifications INTEGER,
  email_notifications INTEGER,
  wildcard_mentions_notify INTEGER,
  date_subscribed ${t.bigint} NOT NULL,
  UNIQUE (user_id, stream_id)
);
CREATE INDEX subscriptions_stream ON subscriptions(stream_id, active, user_id);
CREATE TABLE muted_topics (
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  stream_id ${t.bigint} NOT NULL REFERENCES streams(id),
  topic_lower TEXT NOT NULL,
  topic TEXT NOT NULL,
  date_muted ${t.bigint} NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic_lower)
)`,
};
