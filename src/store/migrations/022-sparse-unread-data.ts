import type { Migration } from "./types.js";

/**
 * Unread and flags without a row per recipient (issue 16): existing data, without loss.
 *
 * 1. Each subscription's interval starts at the first stream message the user has a row for (an
 *    active subscription without one: at the next message); an inactive subscription with rows
 *    gets one closed interval from its first to its last row.
 * 2. Each read watermark sits just below the user's first unread row of the stream (or at the
 *    newest message when none is unread).
 * 3. A stream message becomes sparse only when every user whose interval covers it has a row for
 *    it (gaps, such as a user who left and came back, keep their messages a row per recipient);
 *    its recipient_flags keep wildcard_mentioned when every row has it (historical rows aside).
 * 4. The rows of sparse messages that say exactly what the derived flags say are deleted; every
 *    other row stays, and a row always wins over derived flags, so every answer is unchanged.
 *
 * The SQL of the derived flags is written out here (not imported), so that this migration stays
 * what it was when it shipped.
 */
export const sparseUnreadData: Migration = {
  id: "022-sparse-unread-data",
  up: () => `
UPDATE subscriptions SET active_from = COALESCE(
  (SELECT MIN(um.message_id) FROM user_messages um JOIN messages m ON m.id = um.message_id
   WHERE um.user_id = subscriptions.user_id AND m.stream_id = subscriptions.stream_id),
  (SELECT COALESCE(MAX(id), 0) + 1 FROM messages));
INSERT INTO subscription_intervals (user_id, stream_id, from_id, to_id)
SELECT s.user_id, s.stream_id, MIN(um.message_id), MAX(um.message_id) + 1
FROM subscriptions s JOIN user_messages um ON um.user_id = s.user_id
JOIN messages m ON m.id = um.message_id AND m.stream_id = s.stream_id
WHERE s.active = 0 GROUP BY s.user_id, s.stream_id;
UPDATE subscriptions SET read_upto = COALESCE(
  (SELECT MIN(um.message_id) - 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
   WHERE um.user_id = subscriptions.user_id AND m.stream_id = subscriptions.stream_id AND (um.flags & 1) = 0),
  (SELECT COALESCE(MAX(id), 0) FROM messages));
UPDATE messages SET recipient_flags = COALESCE(
  (SELECT MIN(um.flags & 16) FROM user_messages um WHERE um.message_id = messages.id AND (um.flags & 1024) = 0), 0)
WHERE stream_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM subscriptions s
    WHERE s.stream_id = messages.stream_id AND s.active = 1 AND s.active_from <= messages.id
      AND NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = s.user_id AND um.message_id = messages.id))
  AND NOT EXISTS (SELECT 1 FROM subscription_intervals si
    WHERE si.stream_id = messages.stream_id AND si.from_id <= messages.id AND si.to_id > messages.id
      AND NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.user_id = si.user_id AND um.message_id = messages.id));
DELETE FROM user_messages WHERE EXISTS (
  SELECT 1 FROM messages m JOIN subscriptions sub ON sub.user_id = user_messages.user_id AND sub.stream_id = m.stream_id
  WHERE m.id = user_messages.message_id AND m.recipient_flags IS NOT NULL
    AND ((sub.active = 1 AND m.id >= sub.active_from) OR EXISTS (SELECT 1 FROM subscription_intervals si
      WHERE si.user_id = sub.user_id AND si.stream_id = m.stream_id AND si.from_id <= m.id AND si.to_id > m.id))
    AND user_messages.flags = (m.recipient_flags | (CASE WHEN m.id <= sub.read_upto OR m.sender_id = sub.user_id THEN 1 ELSE 0 END)))`,
};
