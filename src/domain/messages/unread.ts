import { MAX_UNREAD_MESSAGES, pmIds } from "./content.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import type { UnreadMessages } from "./types.js";

/** Register's `unread_msgs`: muted topics and muted streams do not count in `count`. */
export async function unreadMessages(deps: MessageDeps, userId: number): Promise<UnreadMessages> {
  const rows = await deps.store.read.messages.unreadRows(userId, MAX_UNREAD_MESSAGES + 1);
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  if (missing) rows.shift();
  const mutedTopics = await deps.streams.mutedTopicKeys(userId);
  const mutedStreams = new Set(await deps.streams.mutedStreamIds(userId));
  const isMuted = (streamId: number, topic: string) =>
    mutedStreams.has(streamId) || mutedTopics.has(`${streamId}:${topic.toLowerCase()}`);
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const r of rows) {
    let muted = false;
    if (r.streamId !== null) {
      muted = isMuted(r.streamId, r.topic);
      const key = `${r.streamId}\u0000${r.topic}`;
      let bucket = streams.get(key);
      if (bucket === undefined) {
        bucket = { stream_id: r.streamId, topic: r.topic, unread_message_ids: [] };
        streams.set(key, bucket);
      }
      bucket.unread_message_ids.push(r.id);
    } else {
      const ids = pmIds(r);
      if (ids.length <= 2) {
        const other = ids.find((id) => id !== userId) ?? userId;
        pms.set(other, [...(pms.get(other) ?? []), r.id]);
      } else {
        huddles.set(r.pmKey ?? "", [...(huddles.get(r.pmKey ?? "") ?? []), r.id]);
      }
    }
    if (!muted) count += 1;
    if ((r.flags & Flag.mentioned) !== 0 || ((r.flags & Flag.wildcard_mentioned) !== 0 && !muted)) {
      mentions.push(r.id);
    }
  }
  const byKey = <T>(a: [T, unknown], b: [T, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return {
    count,
    pms: [...pms.entries()]
      .sort(byKey)
      .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()].sort((a, b) =>
      a.stream_id !== b.stream_id
        ? a.stream_id - b.stream_id
        : a.topic < b.topic
          ? -1
          : a.topic > b.topic
            ? 1
            : 0,
    ),
    huddles: [...huddles.entries()]
      .sort(byKey)
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: missing,
  };
}
