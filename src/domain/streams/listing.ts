import { JsonableError } from "../../errors.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { compareNames } from "./shared.js";
import type { Stream, Subscription } from "./types.js";

export interface StreamFilter {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeOwnerSubscribed: boolean;
  /** Leave archived streams out (GET /streams `exclude_archived`, Zulip 10.0, feature level 315). */
  excludeArchived?: boolean | undefined;
}

/** GET /users/me/subscriptions: the user's subscriptions with their streams, by stream name. */
export async function subscriptionsWithStreams(
  deps: StreamDeps,
  user: User,
  includeSubscribers: boolean,
): Promise<{ stream: Stream; subscription: Subscription; subscribers: number[] | undefined }[]> {
  const repo = deps.store.read.streams;
  const subs = await repo.activeSubscriptionsOf(user.id);
  const streams = new Map((await repo.byIds(subs.map((s) => s.streamId))).map((s) => [s.id, s]));
  const subscriberMap = includeSubscribers ? await repo.subscriberIdsOf([...streams.keys()]) : undefined;
  const out = subs.flatMap((subscription) => {
    const stream = streams.get(subscription.streamId);
    return stream === undefined
      ? []
      : [
          {
            stream,
            subscription,
            subscribers: subscriberMap?.get(stream.id) ?? (includeSubscribers ? [] : undefined),
          },
        ];
  });
  return out.sort((a, b) => compareNames(a.stream.name, b.stream.name));
}

/**
 * GET /streams (Zulip's do_get_streams): the union of the selected sets, by name. Guests never get
 * public streams they are not subscribed to; `includeAllActive` needs an administrator.
 */
export async function listStreams(deps: StreamDeps, user: User, filter: StreamFilter): Promise<Stream[]> {
  if (filter.includeAllActive && !isAdmin(user))
    throw new JsonableError("User not authorized for this query");
  const repo = deps.store.read.streams;
  // Archived streams have no subscribers: they are listed as public ones are (and for `include_all`).
  const all = filter.excludeArchived === false ? await repo.allWithArchived() : await repo.all();
  let streams: Stream[];
  if (filter.includeAllActive) {
    streams = all;
  } else {
    const subscribed = new Set(filter.includeSubscribed ? await repo.subscribedStreamIds(user.id) : []);
    const ownerSubscribed = new Set(
      filter.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null
        ? await repo.subscribedStreamIds(user.botOwnerId)
        : [],
    );
    const includePublic = filter.includePublic && !isGuest(user);
    streams = all.filter(
      (s) =>
        subscribed.has(s.id) ||
        ownerSubscribed.has(s.id) ||
        (includePublic && !s.inviteOnly) ||
        (filter.includeWebPublic && s.isWebPublic),
    );
  }
  return streams.sort((a, b) => compareNames(a.name, b.name));
}
