import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import { deleteMessageEvent } from "../../wire/events.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import { canReadHistory } from "./access.js";
import type { MessageDeps } from "./ports.js";
import { appendTo } from "../../lib/append-to.js";

/**
 * GET /users/me/{stream_id}/topics (Zulip's get_topic_history_for_stream): the stream's topics,
 * newest first, with their latest message id; over the whole history when the user may read it,
 * else over the messages the user received.
 */
export async function topicsOf(
  deps: MessageDeps,
  user: User,
  streamId: number,
): Promise<{ name: string; maxId: number }[]> {
  const stream = await deps.streams.accessibleById(user, streamId);
  const all = await canReadHistory(deps, user, stream);
  return deps.store.read.messages.topicHistory(stream.id, all ? undefined : user.id);
}

/**
 * POST /streams/{id}/delete_topic: organization administrators delete every message of a topic.
 * `delete_message` events go to everyone who could see those messages.
 */
export async function deleteTopic(
  deps: MessageDeps,
  actor: User,
  streamId: number,
  topicName: string,
): Promise<void> {
  const stream = await deps.streams.accessibleById(actor, streamId);
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  const repo = deps.store.read.messages;
  const ids = await repo.topicMessageIds(stream.id, topicName);
  if (ids.length === 0) return;
  const recipients = new Set<number>(await deps.streams.subscriberIds(stream.id));
  for (const id of ids)
    for (const row of await deps.store.read.flags.rowsOfMessage(id)) recipients.add(row.userId);
  const byTopic = new Map<string, number[]>();
  for (const m of await repo.byIds(ids)) appendTo(byTopic, m.topic, m.id);
  const deleted = new Set(await deps.store.transaction(({ messages }) => messages.deleteMany(ids)));
  if (deleted.size === 0) throw new JsonableError("Message already deleted");
  const to = [...recipients].sort((a, b) => a - b);
  for (const [topic, list] of byTopic) {
    const gone = list.filter((id) => deleted.has(id));
    if (gone.length > 0) deps.events.send(deleteMessageEvent(gone, stream, topic), to);
  }
}
