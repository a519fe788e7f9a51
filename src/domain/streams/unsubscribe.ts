import { StreamDoesNotExistError, UnauthorizedPrincipalError } from "../../errors.js";
import { peerEvent, subscriptionRemoveEvent } from "../../wire/events.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { resolvePrincipals } from "./principals.js";
import { peersOf } from "./shared.js";
import { checkStreamName } from "./stream-names.js";
import type { Stream } from "./types.js";
import { streamSetting } from "./permissions.js";
import { appendTo } from "../../lib/append-to.js";

/**
 * DELETE /users/me/subscriptions. Removing anyone but oneself needs an administrator. A stream
 * that does not exist, or that the actor may not even see, is STREAM_DOES_NOT_EXIST (so private
 * names do not leak). Publishes `subscription` remove to each user and peer_remove to the peers.
 */
export async function unsubscribe(
  deps: StreamDeps,
  actor: User,
  names: readonly string[],
  principals: readonly (string | number)[] | undefined,
): Promise<{ removed: string[]; notRemoved: string[] }> {
  const removingOthers =
    principals !== undefined &&
    principals.some((p) =>
      typeof p === "number" ? p !== actor.id : p.toLowerCase() !== actor.email.toLowerCase(),
    );
  // Removing others: administrators, or who holds every stream's can_remove_subscribers_group.
  const permissions = deps.permissions;
  if (removingOthers && !isAdmin(actor) && permissions === undefined) {
    throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }
  const users = principals === undefined ? [actor] : await resolvePrincipals(deps.users, principals);
  const streams: Stream[] = [];
  for (const raw of names) {
    const name = raw.trim();
    checkStreamName(name);
    const stream = await deps.store.read.streams.byName(name);
    if (stream === undefined || !(isAdmin(actor) || (await deps.access.canAccess(actor, stream)))) {
      throw new StreamDoesNotExistError(name);
    }
    if (
      removingOthers &&
      !isAdmin(actor) &&
      !(await permissions!.hasPermission(actor, streamSetting(stream, "can_remove_subscribers_group")))
    ) {
      throw new UnauthorizedPrincipalError("Must be an organization administrator");
    }
    if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
  }
  const removed: { user: User; stream: Stream }[] = [];
  const notRemoved: { user: User; stream: Stream }[] = [];
  await deps.store.transaction(async ({ streams: repo }) => {
    for (const stream of streams) {
      for (const user of users) {
        if (await repo.isSubscribed(user.id, stream.id)) {
          await repo.deactivate(user.id, stream.id);
          removed.push({ user, stream });
        } else {
          notRemoved.push({ user, stream });
        }
      }
    }
  });
  await publishUnsubscribed(deps, removed);
  return { removed: removed.map((r) => r.stream.name), notRemoved: notRemoved.map((r) => r.stream.name) };
}

/** `subscription` remove to each user; peer_remove to who may see each stream's subscribers. */
export async function publishUnsubscribed(
  deps: StreamDeps,
  removed: readonly { user: User; stream: Stream }[],
): Promise<void> {
  if (removed.length === 0) return;
  const perUser = new Map<number, Stream[]>();
  const perStream = new Map<number, { stream: Stream; userIds: number[] }>();
  for (const { user, stream } of removed) {
    appendTo(perUser, user.id, stream);
    const entry = perStream.get(stream.id) ?? { stream, userIds: [] };
    entry.userIds.push(user.id);
    perStream.set(stream.id, entry);
  }
  for (const [userId, streams] of perUser) deps.events.send(subscriptionRemoveEvent(streams), [userId]);
  const everyone = (await deps.users.allUsers()).filter((u) => u.isActive);
  const subscriberMap = await deps.store.read.streams.subscriberIdsOf([...perStream.keys()]);
  for (const { stream, userIds } of perStream.values()) {
    const removedIds = new Set(userIds);
    const peers = peersOf(stream, subscriberMap.get(stream.id) ?? [], everyone).filter(
      (id) => !removedIds.has(id),
    );
    if (peers.length === 0) continue;
    deps.events.send(peerEvent("peer_remove", [stream.id], userIds), peers);
  }
}
