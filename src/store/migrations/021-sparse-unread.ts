import type { Migration } from "./types.js";

/**
 * Unread and flags without a row per recipient (issue 16): the schema.
 *
 * - `messages.recipient_flags`: NULL for a message with a `user_messages` row per recipient
 *   (private messages, messages moved between streams, and those 022 could not convert); for a
 *   stream message stored sparsely, the flags every recipient without a row has (0, or
 *   wildcard_mentioned 16), `read` added by the rules below.
 * - `subscriptions.active_from`: the first message id of the current subscription (an active row
 *   receives the stream's sparse messages with id ≥ it); `subscriptions.read_upto`: the read
 *   watermark (a received sparse message without a row is read iff its id ≤ it, or its sender is
 *   the user).
 * - `subscription_intervals`: the closed past subscriptions, [from_id, to_id), so that what a user
 *   received of a stream (and may read of a protected-history private stream) survives
 *   unsubscribing.
 * - `users_inactive`: deactivated users, few; a send writes them a "not received" row when they are
 *   still subscribed (only active users receive messages).
 */
export const sparseUnread: Migration = {
  id: "021-sparse-unread",
  up: (t) => `
ALTER TABLE messages ADD COLUMN recipient_flags ${t.bigint};
ALTER TABLE subscriptions ADD COLUMN active_from ${t.bigint} NOT NULL DEFAULT 0;
ALTER TABLE subscriptions ADD COLUMN read_upto ${t.bigint} NOT NULL DEFAULT 0;
CREATE TABLE subscription_intervals (
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  stream_id ${t.bigint} NOT NULL REFERENCES streams(id),
  from_id ${t.bigint} NOT NULL,
  to_id ${t.bigint} NOT NULL,
  PRIMARY KEY (user_id, stream_id, from_id)
);
CREATE INDEX subscription_intervals_stream ON subscription_intervals(stream_id, from_id);
CREATE INDEX users_inactive ON users(id) WHERE is_active = 0`,
};
