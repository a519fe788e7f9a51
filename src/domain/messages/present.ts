import type { Stream } from "../streams/types.js";
import type { User } from "../users/types.js";
import { messageWire } from "../../wire/messages.js";
import { pmIds } from "./content.js";
import type { MessageDeps } from "./ports.js";
import type { PresentOptions, Reaction, StoredMessage } from "./types.js";
import type { Submessage } from "../../store/submessages-repo.js";

async function realm(deps: MessageDeps): Promise<string> {
  deps.realmStr ??= (await deps.users.realm()).stringId;
  return deps.realmStr;
}

export interface WireExtra {
  /** A message just sent: it has no reactions yet. */
  isNew?: boolean;
  /** Users and streams the caller holds already (current: read in this request). */
  known?: { users: ReadonlyMap<number, User>; streams: readonly Stream[] };
}

/**
 * Message dicts for stored messages, in order, with a shared user/stream cache; their reactions
 * are loaded in one query (skipped for a message just sent, which has none).
 */
export async function wireMany(
  deps: MessageDeps,
  messages: readonly StoredMessage[],
  opts: PresentOptions,
  { isNew = false, known }: WireExtra = {},
): Promise<Record<string, unknown>[]> {
  const realmStr = await realm(deps);
  const reactions = new Map<number, Reaction[]>();
  const submessages = new Map<number, Submessage[]>();
  if (!isNew) {
    for (const s of await deps.store.read.submessages.forMessages(messages.map((m) => m.id))) {
      const list = submessages.get(s.messageId);
      if (list === undefined) submessages.set(s.messageId, [s]);
      else list.push(s);
    }
    const all = await deps.store.read.reactions.forMessages(messages.map((m) => m.id));
    for (const r of all) {
      const list = reactions.get(r.messageId);
      if (list === undefined) reactions.set(r.messageId, [r]);
      else list.push(r);
    }
  }
  const userIds = new Set<number>();
  const streamIds = new Set<number>();
  for (const m of messages) {
    userIds.add(m.senderId);
    if (m.streamId !== null) streamIds.add(m.streamId);
    for (const id of pmIds(m)) userIds.add(id);
  }
  const users = new Map<number, User>();
  for (const id of userIds) {
    const u = known?.users.get(id) ?? (await deps.users.byId(id));
    if (u !== undefined) users.set(id, u);
  }
  const streamNames = new Map<number, string>();
  for (const s of known?.streams ?? []) if (streamIds.delete(s.id)) streamNames.set(s.id, s.name);
  if (streamIds.size > 0)
    for (const s of await deps.streams.byIds([...streamIds])) streamNames.set(s.id, s.name);
  return messages.map((m) => {
    const sender = users.get(m.senderId);
    if (sender === undefined) throw new Error(`Unknown sender ${m.senderId} of message ${m.id}`);
    return messageWire(
      m,
      {
        sender,
        realmStr,
        streamName: m.streamId === null ? undefined : streamNames.get(m.streamId),
        participants: pmIds(m).flatMap((id) => users.get(id) ?? []),
        reactions: reactions.get(m.id),
        submessages: submessages.get(m.id),
      },
      opts,
    );
  });
}

export async function wireOne(
  deps: MessageDeps,
  m: StoredMessage,
  opts: PresentOptions,
  extra: WireExtra = {},
): Promise<Record<string, unknown>> {
  const [wire] = await wireMany(deps, [m], opts, extra);
  return wire!;
}
