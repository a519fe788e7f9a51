import type { EventRecipient } from "../events/event-sink.js";
import type { Stream } from "../streams/types.js";
import { JsonableError } from "../../errors.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import { HISTORICAL_FLAGS, flagNames } from "./flag-bits.js";
import { invalidMessage } from "./content.js";
import type { MessageDeps } from "./ports.js";
import type { StoredMessage } from "./types.js";
import { streamSetting } from "../streams/permissions.js";
import type { PermissionChecker } from "../user-groups/group-permissions.js";
import { SystemGroup } from "../user-groups/user-groups-service.js";

/**
 * Zulip's has_message_access: the user's own row, or a stream message whose history the user may
 * read (public stream and not a guest, or subscribed to a stream with shared history).
 */
export async function accessMessage(
  deps: MessageDeps,
  user: User,
  id: number,
): Promise<{ message: StoredMessage; flags: number }> {
  const repo = deps.store.read.messages;
  const message = await repo.byId(id);
  if (message === undefined) throw invalidMessage();
  const flags = await deps.store.read.flags.flagsOf(user.id, id);
  if (flags !== undefined) return { message, flags };
  if (message.streamId === null) throw invalidMessage();
  const stream = await deps.streams.byId(message.streamId);
  if (stream === undefined || !(await canReadHistory(deps, user, stream))) throw invalidMessage();
  return { message, flags: HISTORICAL_FLAGS };
}

/**
 * `accessMessage` for messages the user has no row or derived flags for (known by the caller),
 * with one read of the messages and one check per stream: throws Zulip's "Invalid message(s)"
 * unless every one is a stream message whose history the user may read.
 */
export async function accessUnreceived(deps: MessageDeps, user: User, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const messages = await deps.store.read.messages.byIds(ids);
  if (messages.length !== new Set(ids).size) throw invalidMessage();
  const streamIds = new Set<number>();
  for (const m of messages) {
    if (m.streamId === null) throw invalidMessage();
    streamIds.add(m.streamId);
  }
  for (const streamId of streamIds) {
    const stream = await deps.streams.byId(streamId);
    if (stream === undefined || !(await canReadHistory(deps, user, stream))) throw invalidMessage();
  }
}

/** Whether the user may read the stream's messages that they never received. */
export async function canReadHistory(deps: MessageDeps, user: User, stream: Stream): Promise<boolean> {
  if (!stream.inviteOnly && !isGuest(user)) return true;
  if (stream.inviteOnly && !stream.historyPublicToSubscribers) return false;
  return deps.streams.isSubscribed(user.id, stream.id);
}

/**
 * Who hears about a change to a message: every user with a row (with their flags), plus for
 * streams with shared history the current subscribers without one (flags ["read"]).
 */
export async function interestedUsers(
  deps: MessageDeps,
  id: number,
  stream: Stream | undefined,
): Promise<EventRecipient[]> {
  const rows = await deps.store.read.flags.rowsOfMessage(id);
  const out: EventRecipient[] = rows.map((r) => ({ id: r.userId, flags: flagNames(r.flags) }));
  if (stream !== undefined && (!stream.inviteOnly || stream.historyPublicToSubscribers)) {
    const have = new Set(rows.map((r) => r.userId));
    for (const uid of await deps.streams.subscriberIds(stream.id)) {
      if (!have.has(uid)) out.push({ id: uid, flags: ["read"] });
    }
  }
  return out;
}

/** What checkCanPost needs: a user by id, stream subscriptions, and group-based permissions if any. */
export interface PostAccessLookups {
  users: { byId(id: number): Promise<User | undefined> };
  streams: { isSubscribed(userId: number, streamId: number): Promise<boolean> };
  /** Who holds a group-setting value (src/domain/user-groups); without it, announcement-only rules. */
  permissions?: Pick<PermissionChecker, "hasPermission"> | undefined;
}

/**
 * Zulip's access_stream_for_send_message, with its texts (also checked when scheduling): nobody
 * posts to an archived stream; the sender (or a bot's owner) must hold the stream's
 * `can_send_message_group`; private streams take subscribers only.
 */
export async function checkCanPost(deps: PostAccessLookups, sender: User, stream: Stream): Promise<void> {
  if (stream.isArchived) throw new JsonableError(`Not authorized to send to stream '${stream.name}'`);
  // A bot's owner is read only when a rule needs it (most sends are to public streams).
  let owner: Promise<User | undefined> | undefined;
  const ownerOf = (): Promise<User | undefined> =>
    (owner ??=
      sender.isBot && sender.botOwnerId !== null
        ? deps.users.byId(sender.botOwnerId)
        : Promise.resolve(undefined));
  const sendGroup = streamSetting(stream, "can_send_message_group");
  const mayPost = async (user: User): Promise<boolean> =>
    deps.permissions === undefined
      ? !stream.isAnnouncementOnly || isAdmin(user)
      : deps.permissions.hasPermission(user, sendGroup);
  // System bots (the Notification Bot) are Zulip's cross-realm bots: they may post anywhere.
  const systemBot = sender.isBot && sender.botOwnerId === null;
  if (!systemBot && !(await mayPost(sender))) {
    const o = await ownerOf();
    if (!(o !== undefined && (await mayPost(o)))) {
      throw new JsonableError(
        sendGroup === SystemGroup.ADMINISTRATORS
          ? "Only organization administrators can send to this stream."
          : "You do not have permission to post in this stream.",
      );
    }
  }
  if (!stream.inviteOnly && !isGuest(sender)) return;
  if (systemBot) return;
  if (await deps.streams.isSubscribed(sender.id, stream.id)) return;
  const o = await ownerOf();
  if (o !== undefined && (await deps.streams.isSubscribed(o.id, stream.id))) return;
  throw new JsonableError(`Not authorized to send to stream '${stream.name}'`);
}
