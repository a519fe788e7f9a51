import { JsonableError } from "../../errors.js";
import { flagsEvent } from "../../wire/events.js";
import type { User } from "../users/types.js";
import { accessUnreceived } from "./access.js";
import { API_FLAGS, EDITABLE_FLAGS, Flag, HISTORICAL_FLAGS } from "./flag-bits.js";
import type { FlagName } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";

/**
 * Sends the user's update_message_flags event. Marking messages unread carries each message's
 * conversation (`message_details`), as Zulip sends it, so clients can count the new unreads.
 */
export async function publishFlags(
  deps: MessageDeps,
  userId: number,
  op: "add" | "remove",
  flag: string,
  ids: number[],
  all = false,
): Promise<void> {
  const details = op === "remove" && flag === "read" ? await unreadDetails(deps, userId, ids) : undefined;
  deps.events.send(flagsEvent(op, flag, ids, all, details), [userId]);
}

async function unreadDetails(
  deps: MessageDeps,
  userId: number,
  ids: readonly number[],
): Promise<Record<string, Record<string, unknown>>> {
  const repo = deps.store.read.messages;
  const flags = await deps.store.read.flags.flagsOfMany(userId, ids);
  const details: Record<string, Record<string, unknown>> = {};
  for (const m of await repo.byIds(ids)) {
    const mentioned = ((flags.get(m.id) ?? 0) & (Flag.mentioned | Flag.wildcard_mentioned)) !== 0;
    // `mentioned` is present only when true, as in Zulip.
    const detail: Record<string, unknown> =
      m.streamId === null
        ? {
            type: "private",
            user_ids: (m.pmKey ?? "")
              .split(",")
              .map(Number)
              .filter((id) => id !== userId),
          }
        : { type: "stream", stream_id: m.streamId, topic: m.topic };
    if (mentioned) detail["mentioned"] = true;
    details[String(m.id)] = detail;
  }
  return details;
}

/** The checks of a flag change, with Zulip's texts. */
export function checkFlagChange(op: string, flag: string): asserts op is "add" | "remove" {
  if (!API_FLAGS.includes(flag)) throw new JsonableError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw new JsonableError(`Flag not editable: '${flag}'`);
  if (op !== "add" && op !== "remove") throw new JsonableError(`Invalid message flag operation: '${op}'`);
}

/** POST /mark_all_as_read. Always publishes the `all: true` event, as Zulip does. */
export async function markAllAsRead(deps: MessageDeps, user: User): Promise<void> {
  await deps.store.transaction(({ flags }) => flags.markAllRead(user.id));
  await publishFlags(deps, user.id, "add", "read", [], true);
}

/** POST /mark_stream_as_read ("Invalid stream ID" when unknown or inaccessible). */
export async function markStreamAsRead(deps: MessageDeps, user: User, streamId: number): Promise<void> {
  const stream = await deps.streams.accessibleById(user, streamId);
  const changed = await deps.store.transaction(({ flags }) =>
    flags.changeFlag(user.id, Flag.read, true, { streamId: stream.id }),
  );
  if (changed.length > 0) await publishFlags(deps, user.id, "add", "read", changed);
}

/** POST /mark_topic_as_read ("No such topic 'x'" when the user has no message there). */
export async function markTopicAsRead(
  deps: MessageDeps,
  user: User,
  streamId: number,
  topicName: string,
): Promise<void> {
  const stream = await deps.streams.accessibleById(user, streamId);
  if (topicName !== "" && !(await deps.store.read.flags.hasTopic(user.id, stream.id, topicName))) {
    throw new JsonableError(`No such topic '${topicName}'`);
  }
  const changed = await deps.store.transaction(({ flags }) =>
    flags.changeFlag(
      user.id,
      Flag.read,
      true,
      // An empty topic_name marks the whole stream, as in Zulip.
      topicName === "" ? { streamId: stream.id } : { streamId: stream.id, topic: topicName },
    ),
  );
  if (changed.length > 0) await publishFlags(deps, user.id, "add", "read", changed);
}

/**
 * POST /messages/flags. Messages the user can read without having received them (public
 * history) may be starred: a read+historical row is created. Returns the ids whose flag changed.
 */
export async function updateFlags(
  deps: MessageDeps,
  user: User,
  messageIds: readonly number[],
  op: string,
  flag: string,
): Promise<number[]> {
  checkFlagChange(op, flag);
  const ids = [...new Set(messageIds)];
  const have = await deps.store.read.flags.flagsOfMany(user.id, ids);
  const historical = ids.filter((id) => !have.has(id));
  await accessUnreceived(deps, user, historical);
  const bit = Flag[flag as FlagName];
  const changed = await deps.store.transaction(async ({ flags: repo }) => {
    await repo.lockUser(user.id);
    if (flag === "starred" && op === "add") {
      await repo.insertUserMessages(user.id, historical, HISTORICAL_FLAGS);
    }
    return repo.changeFlag(user.id, bit, op === "add", { messageIds: ids });
  });
  if (changed.length > 0) await publishFlags(deps, user.id, op, flag, changed);
  return changed;
}
