import { MAX_UNREAD_MESSAGES, pmIds } from "./content.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import type { UnreadMessages } from "./types.js";
import { appendTo } from "../../lib/append-to.js";

const ascending = (a: number, b: number) => a - b;

/**
 * Register's `unread_msgs`: muted topics and muted streams do not count in `count`. At most the
 * newest MAX_UNREAD_MESSAGES are listed (`old_unreads_missing` when there are more).
 */
export async function unreadMessages(deps: MessageDeps, userId: number): Promise<UnreadMessages> {
  const { rows, groups } = await deps.store.read.flags.unreadState(userId);
  const total = rows.length + groups.reduce((n, g) => n + g.ids.length, 0);
  const missing = total > MAX_UNREAD_MESSAGES;
  let lowest = 0; // the oldest id listed
  if (missing) {
    const all = new Float64Array(total);
    let k = 0;
    for (const r of rows) all[k++] = r.id;
    for (const g of groups) for (const id of g.ids) all[k++] = id;
    all.sort();
    lowest = all[total - MAX_UNREAD_MESSAGES]!;
  }
  const mutedTopics = await deps.streams.mutedTopicKeys(userId);
  const mutedStreams = new Set(await deps.streams.mutedStreamIds(userId));
  const isMuted = (streamId: number, topic: string) =>
    mutedStreams.has(streamId) || mutedTopics.has(`${streamId}:${topic.toLowerCase()}`);
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const bucket = (streamId: number, topic: string) => {
    const key = `${streamId}\u0000${topic}`;
    let b = streams.get(key);
    if (b === undefined) {
      b = { stream_id: streamId, topic, unread_message_ids: [] };
      streams.set(key, b);
    }
    return b.unread_message_ids;
  };
  const mentions: number[] = [];
  let count = 0;
  for (const r of rows) {
    if (r.id < lowest) continue;
    let muted = false;
    if (r.streamId !== null) {
      muted = isMuted(r.streamId, r.topic);
      bucket(r.streamId, r.topic).push(r.id);
    } else {
      const ids = pmIds(r);
      if (ids.length <= 2) {
        const other = ids.find((id) => id !== userId) ?? userId;
        appendTo(pms, other, r.id);
      } else {
        appendTo(huddles, r.pmKey ?? "", r.id);
      }
    }
    if (!muted) count += 1;
    if ((r.flags & Flag.mentioned) !== 0 || ((r.flags & Flag.wildcard_mentioned) !== 0 && !muted)) {
      mentions.push(r.id);
    }
  }
  let merged = false; // stream buckets fed from both rows and groups need sorting
  for (const g of groups) {
    const ids = lowest === 0 ? g.ids : g.ids.filter((id) => id >= lowest);
    if (ids.length === 0) continue;
    const muted = isMuted(g.streamId, g.topic);
    const list = bucket(g.streamId, g.topic);
    if (list.length > 0) merged = true;
    for (const id of ids) list.push(id);
    if (!muted) count += ids.length;
    if ((g.flags & Flag.mentioned) !== 0 || ((g.flags & Flag.wildcard_mentioned) !== 0 && !muted)) {
      for (const id of ids) mentions.push(id);
    }
  }
  if (merged) for (const b of streams.values()) b.unread_message_ids.sort(ascending);
  if (groups.length > 0) mentions.sort(ascending);
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
