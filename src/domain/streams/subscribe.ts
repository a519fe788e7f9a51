import { JsonableError } from "../../errors.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { GroupSettingValue } from "../user-groups/group-settings.js";
import { streamSetting } from "./permissions.js";
import type { User } from "../users/types.js";
import { peerEvent, streamOpEvent } from "../../wire/events.js";
import { subscriptionWire } from "../../wire/streams.js";
import type { StreamDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";
import { resolvePrincipals } from "./principals.js";
import { peersOf, pickColor, renderDescription, union, uniqueStreams } from "./shared.js";
import { checkStreamName } from "./stream-names.js";
import type { Stream } from "./types.js";
import { appendTo } from "../../lib/append-to.js";

/** A stream named in POST /users/me/subscriptions. */
export interface StreamSpec {
  name: string;
  /** Used when the stream is created. */
  description?: string | undefined;
  /** The subscription's colour ("#rrggbb"); default: picked from Zulip's palette. */
  color?: string | undefined;
}

export interface SubscribeOptions {
  inviteOnly: boolean;
  /** undefined: derived from inviteOnly as in Zulip (public → true, private → false). */
  historyPublicToSubscribers: boolean | undefined;
  isAnnouncementOnly: boolean;
  announce: boolean;
  /** Emails or user ids to subscribe; undefined: the actor. */
  principals: readonly (string | number)[] | undefined;
  authorizationErrorsFatal: boolean;
}

export interface SubscribeOutcome {
  /** email → stream names newly subscribed to. */
  subscribed: Record<string, string[]>;
  /** email → stream names the user was already subscribed to. */
  alreadySubscribed: Record<string, string[]>;
  /** Names (as requested) of streams the actor may not access (only when not fatal). */
  unauthorized: string[];
}

/**
 * POST /users/me/subscriptions: creates the missing streams (with `opts`' flags) and subscribes
 * the principals (default: the actor). Zulip's order of checks: stream names, stream creation
 * right, access to existing streams (`authorizationErrorsFatal`), then principals. Nothing is
 * written when a check fails. Publishes `stream` create, `subscription` add and peer_add events,
 * then the announcement and the Notification Bot's notices.
 */
export async function subscribe(
  deps: StreamDeps,
  actor: User,
  specs: readonly StreamSpec[],
  opts: SubscribeOptions,
): Promise<SubscribeOutcome> {
  const read = deps.store.read.streams;
  const wanted = new Map<string, StreamSpec>();
  for (const spec of specs) {
    const name = spec.name.trim();
    checkStreamName(name);
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { ...spec, name });
  }
  const existing: { stream: Stream; spec: StreamSpec }[] = [];
  const missing: StreamSpec[] = [];
  for (const spec of wanted.values()) {
    const stream = await read.byName(spec.name);
    if (stream === undefined) missing.push(spec);
    else if (stream.isArchived) throw new JsonableError(`Stream '${stream.name}' is archived.`);
    else existing.push({ stream, spec });
  }
  const permissions = deps.permissions;
  const holds = async (value: GroupSettingValue | Promise<GroupSettingValue>): Promise<boolean> =>
    permissions !== undefined && permissions.hasPermission(actor, await value);
  if (missing.length > 0) {
    // The realm's can_create_public_channel_group / can_create_private_channel_group (members by default).
    const setting = opts.inviteOnly ? "can_create_private_channel_group" : "can_create_public_channel_group";
    const allowed =
      permissions === undefined ? !isGuest(actor) : await holds(permissions.realmSetting(setting));
    if (!allowed) throw new JsonableError("User cannot create streams.");
  }

  const authorized: { stream: Stream; spec: StreamSpec }[] = [];
  const unauthorized: string[] = [];
  for (const item of existing) {
    const ok =
      (await read.isSubscribed(actor.id, item.stream.id)) ||
      item.stream.isWebPublic ||
      !(item.stream.inviteOnly || isGuest(actor)) ||
      // A private stream's can_subscribe_group and can_add_subscribers_group may join it.
      (await holds(streamSetting(item.stream, "can_subscribe_group"))) ||
      (await holds(streamSetting(item.stream, "can_add_subscribers_group")));
    if (ok) authorized.push(item);
    else unauthorized.push(item.spec.name);
  }
  const firstUnauthorized = unauthorized[0];
  if (firstUnauthorized !== undefined && opts.authorizationErrorsFatal) {
    throw new JsonableError(`Unable to access stream (${firstUnauthorized}).`);
  }

  let subscribers: User[] = [actor];
  if (opts.principals !== undefined) {
    if (isGuest(actor)) throw new JsonableError("Not allowed for guest users");
    subscribers = await resolvePrincipals(deps.users, opts.principals);
    // Subscribing others to existing streams: administrators, the realm's can_add_subscribers_group,
    // or each stream's own can_add_subscribers_group (Zulip's check_can_add_subscribers).
    if (subscribers.some((u) => u.id !== actor.id) && !isAdmin(actor) && permissions !== undefined) {
      if (!(await holds(permissions.realmSetting("can_add_subscribers_group")))) {
        for (const { stream } of authorized) {
          if (!(await holds(streamSetting(stream, "can_add_subscribers_group")))) {
            throw new JsonableError("Insufficient permission");
          }
        }
      }
    }
  }

  const now = nowSeconds(deps);
  const realm = await deps.users.realm();
  const created: Stream[] = [];
  const targets: { stream: Stream; color: string | undefined }[] = [];
  const added: { user: User; stream: Stream }[] = [];
  const already: { user: User; stream: Stream }[] = [];
  /** Users who can newly see an existing private stream. */
  const newViewers = new Map<number, Set<number>>();
  await deps.store.transaction(async ({ streams: repo }) => {
    for (const spec of missing) {
      const description = (spec.description ?? "").replace(/\n/g, " ");
      const inserted = await repo.insert({
        realmId: realm.id,
        name: spec.name,
        description,
        renderedDescription: renderDescription(description),
        inviteOnly: opts.inviteOnly,
        historyPublicToSubscribers: opts.inviteOnly ? (opts.historyPublicToSubscribers ?? false) : true,
        isAnnouncementOnly: opts.isAnnouncementOnly,
        isDefault: false,
        dateCreated: now,
        creatorId: actor.id,
      });
      if (inserted === undefined) {
        // Created by a concurrent request since the checks above (the insert waited for it to
        // commit, so it can be read now): join it if allowed.
        const raced = await repo.byName(spec.name);
        if (raced === undefined) throw new Error(`stream ${spec.name} was neither created nor found`);
        if (raced.inviteOnly && !(await repo.isSubscribed(actor.id, raced.id))) {
          throw new JsonableError(`Unable to access stream (${spec.name}).`);
        }
        targets.push({ stream: raced, color: spec.color });
        continue;
      }
      // As in Zulip, the creator administers the new channel (streams made without one: nobody).
      const stream = await repo.update(inserted.id, {
        groupSettings: { can_administer_channel_group: { direct_members: [actor.id], direct_subgroups: [] } },
      });
      created.push(stream);
      targets.push({ stream, color: spec.color });
    }
    for (const { stream, spec } of authorized) targets.unshift({ stream, color: spec.color });
    targets.sort((a, b) => order(a.stream) - order(b.stream));
    for (const user of subscribers) {
      const used = new Set(await repo.colorsOf(user.id));
      for (const { stream, color } of targets) {
        if (await repo.isSubscribed(user.id, stream.id)) {
          already.push({ user, stream });
          continue;
        }
        const picked = color ?? pickColor(used);
        if (!(await repo.activate(user.id, stream.id, picked, now))) {
          // Another request (the user's other client) subscribed them since the check above.
          already.push({ user, stream });
          continue;
        }
        used.add(picked);
        if (color !== undefined) await repo.setProperty(user.id, stream.id, "color", color);
        added.push({ user, stream });
        if (stream.inviteOnly && !created.includes(stream)) {
          const set = newViewers.get(stream.id) ?? new Set<number>();
          newViewers.set(stream.id, set.add(user.id));
        }
      }
    }
  });
  function order(stream: Stream): number {
    return [...wanted.keys()].indexOf(stream.name.toLowerCase());
  }

  await publishSubscribed(deps, created, added, newViewers);
  // The subscriptions are committed: a notice that cannot be posted must not turn them into an error.
  try {
    await notifySubscribed(deps, actor, created, added, opts.announce, realm.notificationsStreamId);
  } catch (err) {
    deps.logger.warn("could not post a subscription notice", { actor_id: actor.id, error: err as Error });
  }

  const byEmail = (pairs: { user: User; stream: Stream }[]): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const { user, stream } of pairs) (out[user.email] ??= []).push(stream.name);
    return out;
  };
  return { subscribed: byEmail(added), alreadySubscribed: byEmail(already), unauthorized };
}

/** `stream` create events (to those who can now see the stream), `subscription` add and peer_add. */
export async function publishSubscribed(
  deps: StreamDeps,
  created: readonly Stream[],
  added: readonly { user: User; stream: Stream }[],
  newViewers: Map<number, Set<number>>,
): Promise<void> {
  if (added.length === 0 && created.length === 0) return;
  const repo = deps.store.read.streams;
  const everyone = (await deps.users.allUsers()).filter((u) => u.isActive);
  const streams = uniqueStreams([...created, ...added.map((a) => a.stream)]);
  const subscriberMap = await repo.subscriberIdsOf(streams.map((s) => s.id));
  const newSubscribers = new Map<number, number[]>();
  for (const { user, stream } of added) {
    appendTo(newSubscribers, stream.id, user.id);
  }
  for (const stream of created) {
    const subscribers = subscriberMap.get(stream.id) ?? [];
    const recipients = stream.inviteOnly
      ? subscribers
      : union(
          everyone.filter((u) => !isGuest(u)).map((u) => u.id),
          subscribers,
        );
    deps.events.send(streamOpEvent("create", [stream]), recipients);
  }
  for (const stream of streams) {
    const viewers = [...(newViewers.get(stream.id) ?? [])];
    if (viewers.length > 0) deps.events.send(streamOpEvent("create", [stream]), viewers);
  }
  const perUser = new Map<number, Stream[]>();
  for (const { user, stream } of added) {
    appendTo(perUser, user.id, stream);
  }
  for (const [userId, userStreams] of perUser) {
    const subs: Record<string, unknown>[] = [];
    for (const stream of userStreams) {
      const sub = await repo.subscription(userId, stream.id);
      if (sub !== undefined) subs.push(subscriptionWire(stream, sub, subscriberMap.get(stream.id) ?? []));
    }
    deps.events.send({ type: "subscription", op: "add", subscriptions: subs }, [userId]);
  }
  for (const stream of streams) {
    const altered = newSubscribers.get(stream.id) ?? [];
    if (altered.length === 0) continue;
    const alteredSet = new Set(altered);
    const peers = peersOf(stream, subscriberMap.get(stream.id) ?? [], everyone).filter(
      (id) => !alteredSet.has(id),
    );
    if (peers.length === 0) continue;
    deps.events.send(peerEvent("peer_add", [stream.id], altered), peers);
  }
}

/** The announcement in the notifications stream and the Notification Bot's private notices. */
async function notifySubscribed(
  deps: StreamDeps,
  actor: User,
  created: readonly Stream[],
  added: readonly { user: User; stream: Stream }[],
  announce: boolean,
  notificationsStreamId: number | null,
): Promise<void> {
  const messages = deps.notices;
  if (messages === undefined) return;
  const bot = await deps.users.notificationBot();
  const createdIds = new Set(created.map((s) => s.id));
  const perUser = new Map<number, { user: User; names: string[] }>();
  for (const { user, stream } of added) {
    if (user.id === actor.id || user.isBot || createdIds.has(stream.id)) continue;
    const entry = perUser.get(user.id) ?? { user, names: [] };
    entry.names.push(stream.name);
    perUser.set(user.id, entry);
  }
  for (const { user, names } of perUser.values()) {
    const mention = `@**${actor.fullName}|${actor.id}**`;
    const content =
      names.length === 1
        ? `${mention} subscribed you to the stream #**${names[0] ?? ""}**.`
        : `${mention} subscribed you to the following streams:\n\n${names.map((n) => `* #**${n}**\n`).join("")}`;
    await messages.send(bot, { type: "private", to: [user.email], content });
  }
  // Only public streams are announced: a private stream's name is for its subscribers.
  const announced = created.filter((s) => !s.inviteOnly);
  if (!announce || announced.length === 0 || notificationsStreamId === null) return;
  const notifications = await deps.store.read.streams.byId(notificationsStreamId);
  if (notifications === undefined) return;
  const mention = `@_**${actor.fullName}|${actor.id}**`;
  const names = announced.map((s) => `#**${s.name}**`);
  const content =
    announced.length === 1
      ? `${mention} created a new stream ${names[0] ?? ""}.`
      : `${mention} created the following streams: ${names.join(", ")}.`;
  await messages.send(bot, { type: "stream", to: notifications.name, topic: "new streams", content });
}
