import type { Logger } from "../../logger.js";
import { silentLogger } from "../../logger.js";
import MarkdownIt from "markdown-it";
import type { Clock } from "../../clock.js";
import { JsonableError, StreamDoesNotExistError, UnauthorizedPrincipalError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { sqlBool } from "../../store/db.js";
import { StreamsRepo } from "../../store/streams-repo.js";
import { UsersRepo } from "../../store/users-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { UserService } from "../users/user-service.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import { NotificationSettingsStore } from "./notification-settings.js";
import type { NotificationSettings } from "./notification-settings.js";
import { checkStreamName, normalizeColor } from "./stream-names.js";
import { STREAM_ASSIGNMENT_COLORS, SUBSCRIPTION_PROPERTIES } from "./types.js";
import type { MutedTopic, Stream, Subscription, SubscriptionProperty } from "./types.js";
import { streamWire, subscriptionWire } from "./wire.js";

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

export interface PropertyChange {
  streamId: number;
  property: string;
  value: string | boolean;
}

export interface StreamFilter {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeOwnerSubscribed: boolean;
}

/** What the stream service needs of the messages service (announcements, Notification Bot notices). */
export interface StreamMessageSender {
  send(
    sender: User,
    message: { type: "stream" | "private"; to: string | string[]; topic?: string; content: string },
  ): Promise<number>;
}

/**
 * Streams, subscriptions and muted topics: who may see, read and post to a stream, and the
 * subscribe/unsubscribe/property/muting operations behind the subscription endpoints. Events are
 * published through the EventSink after the write has committed.
 */
export class StreamService {
  constructor(
    private readonly db: Db,
    private readonly events: EventSink,
    private readonly clock: Clock,
    private readonly users: UserService,
    /** The messages service once it exists; undefined → no announcement/notices are posted. */
    private readonly messages: () => StreamMessageSender | undefined = () => undefined,
    private readonly logger: Logger = silentLogger,
  ) {}

  private get repo(): StreamsRepo {
    return new StreamsRepo(this.db);
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  // Lookups (no access checks: callers that answer a user must use the accessible* methods)

  /** The stream named `name` (case-insensitive), whatever its privacy; undefined when none. */
  async byName(name: string): Promise<Stream | undefined> {
    return this.repo.byName(name.trim());
  }

  /** The stream with this id, whatever its privacy; undefined when none. */
  async byId(id: number): Promise<Stream | undefined> {
    return this.repo.byId(id);
  }

  /** Several streams by id (unknown ids are skipped), ascending by id. */
  async byIds(ids: readonly number[]): Promise<Stream[]> {
    return this.repo.byIds(ids);
  }

  /** Every stream of the realm, ascending by id (no access check). */
  async allStreams(): Promise<Stream[]> {
    return this.repo.all();
  }

  // Access

  /**
   * Whether `user` may read the stream's messages and see its name and subscribers: subscribers
   * always; everyone but guests for public streams. (Zulip's access_stream_*.)
   */
  async canAccess(user: User, stream: Stream): Promise<boolean> {
    if (!stream.inviteOnly && !isGuest(user)) return true;
    return this.repo.isSubscribed(user.id, stream.id);
  }

  /**
   * Whether `user` may post to the stream (Zulip's access_stream_for_send_message): announcement-only
   * streams take only administrators; private streams only subscribers (a bot also when its owner is
   * subscribed); guests only streams they are subscribed to.
   */
  async canPost(user: User, stream: Stream): Promise<boolean> {
    if (stream.isAnnouncementOnly && !isAdmin(user)) return false;
    if (!stream.inviteOnly && !isGuest(user)) return true;
    if (await this.repo.isSubscribed(user.id, stream.id)) return true;
    return (
      user.isBot && user.botOwnerId !== null && (await this.repo.isSubscribed(user.botOwnerId, stream.id))
    );
  }

  /**
   * The stream named `name` if `user` can access it. Throws JsonableError "Invalid stream name 'x'"
   * both when it does not exist and when it is private to others, so nothing leaks.
   */
  async accessibleByName(user: User, name: string): Promise<Stream> {
    const stream = await this.repo.byName(name.trim());
    if (stream === undefined || !(await this.canAccess(user, stream))) {
      throw new JsonableError(`Invalid stream name '${name}'`);
    }
    return stream;
  }

  /**
   * The stream with this id if `user` can access it. Throws JsonableError "Invalid stream ID" both
   * when it does not exist and when it is private to others (Zulip's access_stream_by_id).
   */
  async accessibleById(user: User, id: number): Promise<Stream> {
    const stream = await this.repo.byId(id);
    if (stream === undefined || !(await this.canAccess(user, stream))) {
      throw new JsonableError("Invalid stream ID");
    }
    return stream;
  }

  // Subscriptions

  /** Whether the user is (actively) subscribed to the stream. */
  async isSubscribed(userId: number, streamId: number): Promise<boolean> {
    return this.repo.isSubscribed(userId, streamId);
  }

  /**
   * Ids of the active users subscribed to the stream, ascending. One indexed query; this is the
   * recipient list of a stream message.
   */
  async subscriberIds(streamId: number): Promise<number[]> {
    return this.repo.subscriberIds(streamId);
  }

  /** subscriberIds for several streams in one query: stream id → user ids. */
  async subscriberIdsOf(streamIds: readonly number[]): Promise<Map<number, number[]>> {
    return this.repo.subscriberIdsOf(streamIds);
  }

  /** Ids of the streams the user is subscribed to, ascending. */
  async subscribedStreamIds(userId: number): Promise<number[]> {
    return this.repo.subscribedStreamIds(userId);
  }

  /** The user's active subscriptions with their settings (color, is_muted, …), by stream id. */
  async subscriptionsOf(userId: number): Promise<Subscription[]> {
    return this.repo.activeSubscriptionsOf(userId);
  }

  /** Ids of the streams the user subscribed to and muted (their messages do not count as unread). */
  async mutedStreamIds(userId: number): Promise<number[]> {
    return (await this.repo.activeSubscriptionsOf(userId)).filter((s) => s.isMuted).map((s) => s.streamId);
  }

  /**
   * Called by the messages service after a stream message is stored: sets the stream's
   * `first_message_id` when it has none.
   */
  async noteMessageSent(streamId: number, messageId: number): Promise<void> {
    await this.repo.noteMessage(streamId, messageId);
  }

  // Muted topics

  /** Whether the user muted this topic of the stream (topics compare case-insensitively). */
  async isTopicMuted(userId: number, streamId: number, topic: string): Promise<boolean> {
    return this.repo.isTopicMuted(userId, streamId, topic);
  }

  /** The user's muted topics as register's `muted_topics`: [[stream_name, topic, date_muted]]. */
  async mutedTopics(userId: number): Promise<MutedTopic[]> {
    return this.repo.mutedTopics(userId);
  }

  /**
   * The user's muted topics as a set of `${streamId}:${topic.toLowerCase()}` keys, for filtering
   * many messages (unread counts) without one query per message.
   */
  async mutedTopicKeys(userId: number): Promise<Set<string>> {
    return new Set((await this.repo.mutedTopicKeys(userId)).map((k) => `${k.streamId}:${k.topicLower}`));
  }

  // Creating streams and subscribing

  /**
   * POST /users/me/subscriptions: creates the missing streams (with `opts`' flags) and subscribes
   * the principals (default: the actor). Zulip's order of checks: stream names, stream creation
   * right, access to existing streams (`authorizationErrorsFatal`), then principals. Nothing is
   * written when a check fails. Publishes `stream` create, `subscription` add and peer_add events,
   * then the announcement and the Notification Bot's notices.
   */
  async subscribe(
    actor: User,
    specs: readonly StreamSpec[],
    opts: SubscribeOptions,
  ): Promise<SubscribeOutcome> {
    const wanted = new Map<string, StreamSpec>();
    for (const spec of specs) {
      const name = spec.name.trim();
      checkStreamName(name);
      if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { ...spec, name });
    }
    const existing: { stream: Stream; spec: StreamSpec }[] = [];
    const missing: StreamSpec[] = [];
    for (const spec of wanted.values()) {
      const stream = await this.repo.byName(spec.name);
      if (stream === undefined) missing.push(spec);
      else existing.push({ stream, spec });
    }
    if (missing.length > 0 && isGuest(actor)) throw new JsonableError("User cannot create streams.");

    const authorized: { stream: Stream; spec: StreamSpec }[] = [];
    const unauthorized: string[] = [];
    for (const item of existing) {
      const ok =
        (await this.repo.isSubscribed(actor.id, item.stream.id)) ||
        item.stream.isWebPublic ||
        !(item.stream.inviteOnly || isGuest(actor));
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
      subscribers = await this.resolvePrincipals(opts.principals);
    }

    const now = this.nowSeconds();
    const realm = await this.users.realm();
    const created: Stream[] = [];
    const targets: { stream: Stream; color: string | undefined }[] = [];
    const added: { user: User; stream: Stream }[] = [];
    const already: { user: User; stream: Stream }[] = [];
    /** Users who can newly see an existing private stream. */
    const newViewers = new Map<number, Set<number>>();
    await this.db.transaction(async (tx) => {
      const repo = new StreamsRepo(tx);
      for (const spec of missing) {
        // Created by a concurrent request since the checks above: join it if allowed.
        const raced = await repo.byName(spec.name);
        if (raced !== undefined) {
          if (raced.inviteOnly && !(await repo.isSubscribed(actor.id, raced.id))) {
            throw new JsonableError(`Unable to access stream (${spec.name}).`);
          }
          targets.push({ stream: raced, color: spec.color });
          continue;
        }
        const description = (spec.description ?? "").replace(/\n/g, " ");
        const stream = await repo.insert({
          realmId: realm.id,
          name: spec.name,
          description,
          renderedDescription: renderDescription(description),
          inviteOnly: opts.inviteOnly,
          historyPublicToSubscribers: opts.inviteOnly ? (opts.historyPublicToSubscribers ?? false) : true,
          isAnnouncementOnly: opts.isAnnouncementOnly,
          isDefault: false,
          dateCreated: now,
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
          used.add(picked);
          await repo.activate(user.id, stream.id, picked, now);
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

    await this.publishSubscribed(created, added, newViewers);
    // The subscriptions are committed: a notice that cannot be posted must not turn them into an error.
    try {
      await this.notifySubscribed(actor, created, added, opts.announce, realm.notificationsStreamId);
    } catch (err) {
      this.logger.warn("could not post a subscription notice", { actor_id: actor.id, error: err as Error });
    }

    const byEmail = (pairs: { user: User; stream: Stream }[]): Record<string, string[]> => {
      const out: Record<string, string[]> = {};
      for (const { user, stream } of pairs) (out[user.email] ??= []).push(stream.name);
      return out;
    };
    return { subscribed: byEmail(added), alreadySubscribed: byEmail(already), unauthorized };
  }

  private async publishSubscribed(
    created: readonly Stream[],
    added: readonly { user: User; stream: Stream }[],
    newViewers: Map<number, Set<number>>,
  ): Promise<void> {
    if (added.length === 0 && created.length === 0) return;
    const everyone = (await this.users.allUsers()).filter((u) => u.isActive);
    const streams = uniqueStreams([...created, ...added.map((a) => a.stream)]);
    const subscriberMap = await this.repo.subscriberIdsOf(streams.map((s) => s.id));
    const newSubscribers = new Map<number, number[]>();
    for (const { user, stream } of added) {
      newSubscribers.set(stream.id, [...(newSubscribers.get(stream.id) ?? []), user.id]);
    }
    for (const stream of created) {
      const subscribers = subscriberMap.get(stream.id) ?? [];
      const recipients = stream.inviteOnly
        ? subscribers
        : union(
            everyone.filter((u) => !isGuest(u)).map((u) => u.id),
            subscribers,
          );
      this.events.send({ type: "stream", op: "create", streams: [streamWire(stream)] }, recipients);
    }
    for (const stream of streams) {
      const viewers = [...(newViewers.get(stream.id) ?? [])];
      if (viewers.length > 0) {
        this.events.send({ type: "stream", op: "create", streams: [streamWire(stream)] }, viewers);
      }
    }
    const perUser = new Map<number, Stream[]>();
    for (const { user, stream } of added) perUser.set(user.id, [...(perUser.get(user.id) ?? []), stream]);
    for (const [userId, userStreams] of perUser) {
      const subs: Record<string, unknown>[] = [];
      for (const stream of userStreams) {
        const sub = await this.repo.subscription(userId, stream.id);
        if (sub !== undefined) subs.push(subscriptionWire(stream, sub, subscriberMap.get(stream.id) ?? []));
      }
      this.events.send({ type: "subscription", op: "add", subscriptions: subs }, [userId]);
    }
    for (const stream of streams) {
      const altered = newSubscribers.get(stream.id) ?? [];
      if (altered.length === 0) continue;
      const peers = peersOf(stream, subscriberMap.get(stream.id) ?? [], everyone).filter(
        (id) => !altered.includes(id),
      );
      if (peers.length === 0) continue;
      this.events.send(
        {
          type: "subscription",
          op: "peer_add",
          stream_ids: [stream.id],
          user_ids: [...altered].sort((a, b) => a - b),
        },
        peers,
      );
    }
  }

  /** The announcement in the notifications stream and the Notification Bot's private notices. */
  private async notifySubscribed(
    actor: User,
    created: readonly Stream[],
    added: readonly { user: User; stream: Stream }[],
    announce: boolean,
    notificationsStreamId: number | null,
  ): Promise<void> {
    const messages = this.messages();
    if (messages === undefined) return;
    const bot = await this.users.notificationBot();
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
    const notifications = await this.repo.byId(notificationsStreamId);
    if (notifications === undefined) return;
    const mention = `@_**${actor.fullName}|${actor.id}**`;
    const names = announced.map((s) => `#**${s.name}**`);
    const content =
      announced.length === 1
        ? `${mention} created a new stream ${names[0] ?? ""}.`
        : `${mention} created the following streams: ${names.join(", ")}.`;
    await messages.send(bot, { type: "stream", to: notifications.name, topic: "new streams", content });
  }

  /** Emails or ids → active users; an unknown one is Zulip's PrincipalError. */
  private async resolvePrincipals(principals: readonly (string | number)[]): Promise<User[]> {
    const out: User[] = [];
    for (const principal of principals) {
      const user =
        typeof principal === "number"
          ? await this.users.byId(principal)
          : await this.users.byEmail(principal);
      if (user === undefined || !user.isActive) throw new PrincipalError(principal);
      if (!out.some((u) => u.id === user.id)) out.push(user);
    }
    return out;
  }

  /**
   * DELETE /users/me/subscriptions. Removing anyone but oneself needs an administrator. A stream
   * that does not exist, or that the actor may not even see, is STREAM_DOES_NOT_EXIST (so private
   * names do not leak). Publishes `subscription` remove to each user and peer_remove to the peers.
   */
  async unsubscribe(
    actor: User,
    names: readonly string[],
    principals: readonly (string | number)[] | undefined,
  ): Promise<{ removed: string[]; notRemoved: string[] }> {
    const removingOthers =
      principals !== undefined &&
      principals.some((p) =>
        typeof p === "number" ? p !== actor.id : p.toLowerCase() !== actor.email.toLowerCase(),
      );
    if (removingOthers && !isAdmin(actor)) {
      throw new UnauthorizedPrincipalError("Must be an organization administrator");
    }
    const users = principals === undefined ? [actor] : await this.resolvePrincipals(principals);
    const streams: Stream[] = [];
    for (const raw of names) {
      const name = raw.trim();
      checkStreamName(name);
      const stream = await this.repo.byName(name);
      if (stream === undefined || !(isAdmin(actor) || (await this.canAccess(actor, stream)))) {
        throw new StreamDoesNotExistError(name);
      }
      if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
    }
    const removed: { user: User; stream: Stream }[] = [];
    const notRemoved: { user: User; stream: Stream }[] = [];
    await this.db.transaction(async (tx) => {
      const repo = new StreamsRepo(tx);
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
    await this.publishUnsubscribed(removed);
    return { removed: removed.map((r) => r.stream.name), notRemoved: notRemoved.map((r) => r.stream.name) };
  }

  private async publishUnsubscribed(removed: readonly { user: User; stream: Stream }[]): Promise<void> {
    if (removed.length === 0) return;
    const perUser = new Map<number, Stream[]>();
    const perStream = new Map<number, { stream: Stream; userIds: number[] }>();
    for (const { user, stream } of removed) {
      perUser.set(user.id, [...(perUser.get(user.id) ?? []), stream]);
      const entry = perStream.get(stream.id) ?? { stream, userIds: [] };
      entry.userIds.push(user.id);
      perStream.set(stream.id, entry);
    }
    for (const [userId, streams] of perUser) {
      this.events.send(
        {
          type: "subscription",
          op: "remove",
          subscriptions: streams.map((s) => ({ name: s.name, stream_id: s.id })),
        },
        [userId],
      );
    }
    const everyone = (await this.users.allUsers()).filter((u) => u.isActive);
    const subscriberMap = await this.repo.subscriberIdsOf([...perStream.keys()]);
    for (const { stream, userIds } of perStream.values()) {
      const peers = peersOf(stream, subscriberMap.get(stream.id) ?? [], everyone).filter(
        (id) => !userIds.includes(id),
      );
      if (peers.length === 0) continue;
      this.events.send(
        {
          type: "subscription",
          op: "peer_remove",
          stream_ids: [stream.id],
          user_ids: [...userIds].sort((a, b) => a - b),
        },
        peers,
      );
    }
  }

  // Subscription properties

  /**
   * POST /users/me/subscriptions/properties. Every change is validated first (unknown property,
   * "Invalid stream ID", "Not subscribed to stream id N", the value's type), then all are applied in
   * one transaction; one `subscription` update event per change (is_muted and in_home_view both).
   */
  async updateSubscriptionProperties(user: User, changes: readonly PropertyChange[]): Promise<void> {
    const checked: { stream: Stream; property: SubscriptionProperty; value: string | boolean }[] = [];
    for (const change of changes) {
      if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
        throw new JsonableError(`Unknown subscription property: ${change.property}`);
      }
      const property = change.property as SubscriptionProperty;
      const stream = await this.accessibleById(user, change.streamId);
      if (!(await this.repo.isSubscribed(user.id, stream.id))) {
        throw new JsonableError(`Not subscribed to stream id ${change.streamId}`);
      }
      let value: string | boolean;
      if (property === "color") {
        value = normalizeColor(change.value, property);
      } else {
        if (typeof change.value !== "boolean") throw new JsonableError(`${property} is not a boolean`);
        value = change.value;
      }
      checked.push({ stream, property, value });
    }
    await this.db.transaction(async (tx) => {
      const repo = new StreamsRepo(tx);
      for (const { stream, property, value } of checked) {
        if (property === "in_home_view")
          await repo.setProperty(user.id, stream.id, "is_muted", sqlBool(!value));
        else if (property === "color") await repo.setProperty(user.id, stream.id, "color", value as string);
        else await repo.setProperty(user.id, stream.id, property, sqlBool(value as boolean));
      }
    });
    for (const { stream, property, value } of checked) {
      const update = (p: string, v: string | boolean): void => {
        this.events.send(
          { type: "subscription", op: "update", property: p, value: v, stream_id: stream.id },
          [user.id],
        );
      };
      if (property === "in_home_view" || property === "is_muted") {
        const muted = property === "is_muted" ? (value as boolean) : !(value as boolean);
        update("in_home_view", !muted);
        update("is_muted", muted);
      } else {
        update(property, value);
      }
    }
  }

  // Topic muting

  /**
   * PATCH /users/me/subscriptions/muted_topics. Exactly one of `streamName`/`streamId`; muting
   * needs access to the stream; unmuting a topic that is not muted (or of a stream that does not
   * exist) is "Topic is not muted". Publishes the full `muted_topics` list to the user.
   */
  async updateMutedTopic(
    user: User,
    args: {
      streamName: string | undefined;
      streamId: number | undefined;
      topic: string;
      op: "add" | "remove";
    },
  ): Promise<void> {
    if (args.streamName === undefined && args.streamId === undefined) {
      throw new JsonableError("Please supply 'stream'.");
    }
    if (args.streamName !== undefined && args.streamId !== undefined) {
      throw new JsonableError("Please choose one: 'stream' or 'stream_id'.");
    }
    if (args.op === "add") {
      const stream =
        args.streamName !== undefined
          ? await this.accessibleByName(user, args.streamName)
          : await this.accessibleById(user, args.streamId ?? 0);
      if (await this.repo.isTopicMuted(user.id, stream.id, args.topic)) {
        throw new JsonableError("Topic already muted");
      }
      await this.repo.muteTopic(user.id, stream.id, args.topic, this.nowSeconds());
    } else {
      const stream =
        args.streamName !== undefined
          ? await this.repo.byName(args.streamName.trim())
          : await this.repo.byId(args.streamId ?? 0);
      if (stream === undefined || !(await this.repo.unmuteTopic(user.id, stream.id, args.topic))) {
        throw new JsonableError("Topic is not muted");
      }
    }
    this.events.send({ type: "muted_topics", muted_topics: await this.repo.mutedTopics(user.id) }, [user.id]);
  }

  // Listing

  /** GET /users/me/subscriptions: the user's subscriptions with their streams, by stream name. */
  async subscriptionsWithStreams(
    user: User,
    includeSubscribers: boolean,
  ): Promise<{ stream: Stream; subscription: Subscription; subscribers: number[] | undefined }[]> {
    const subs = await this.repo.activeSubscriptionsOf(user.id);
    const streams = new Map((await this.repo.byIds(subs.map((s) => s.streamId))).map((s) => [s.id, s]));
    const subscriberMap = includeSubscribers
      ? await this.repo.subscriberIdsOf([...streams.keys()])
      : undefined;
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
  async listStreams(user: User, filter: StreamFilter): Promise<Stream[]> {
    if (filter.includeAllActive && !isAdmin(user))
      throw new JsonableError("User not authorized for this query");
    const all = await this.repo.all();
    let streams: Stream[];
    if (filter.includeAllActive) {
      streams = all;
    } else {
      const subscribed = new Set(
        filter.includeSubscribed ? await this.repo.subscribedStreamIds(user.id) : [],
      );
      const ownerSubscribed = new Set(
        filter.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null
          ? await this.repo.subscribedStreamIds(user.botOwnerId)
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

  /**
   * GET /streams/{id}: a stream the user can access (administrators also private ones, as in
   * Zulip); otherwise "Invalid stream ID".
   */
  async streamFor(user: User, streamId: number): Promise<Stream> {
    const stream = await this.repo.byId(streamId);
    if (stream === undefined || !(isAdmin(user) || (await this.canAccess(user, stream)))) {
      throw new JsonableError("Invalid stream ID");
    }
    return stream;
  }

  /**
   * GET /streams/{id}/members: the subscriber ids of a stream the user can access (administrators
   * also of private streams, as in Zulip); otherwise "Invalid stream ID".
   */
  async members(user: User, streamId: number): Promise<number[]> {
    const stream = await this.streamFor(user, streamId);
    return this.repo.subscriberIds(stream.id);
  }

  // Global notification settings

  /** The user's global notification settings (register's `enable_*` fields), defaults included. */
  async notificationSettings(userId: number): Promise<NotificationSettings> {
    return new NotificationSettingsStore(this.db, this.events).get(userId);
  }

  /**
   * PATCH /settings/notifications: saves the typed `changes` and returns only the settings whose
   * value changed; one `update_global_notifications` event each. Bots are refused.
   */
  async updateNotificationSettings(
    user: User,
    changes: Partial<NotificationSettings>,
  ): Promise<Partial<NotificationSettings>> {
    return new NotificationSettingsStore(this.db, this.events).update(user, changes);
  }

  // Bootstrap

  /**
   * First start (idempotent): when the realm has no stream yet, creates the public default stream
   * "general", subscribes the active human users and makes it the realm's notifications stream.
   */
  async ensureDefaultStreams(): Promise<void> {
    if ((await this.repo.all()).length > 0) return;
    const realm = await this.users.realm();
    const description = "Everyone is added to this stream by default. Welcome!";
    const humans = (await this.users.allUsers()).filter((u) => u.isActive && !u.isBot);
    const now = this.nowSeconds();
    await this.db.transaction(async (tx) => {
      const repo = new StreamsRepo(tx);
      const general = await repo.insert({
        realmId: realm.id,
        name: "general",
        description,
        renderedDescription: renderDescription(description),
        inviteOnly: false,
        historyPublicToSubscribers: true,
        isAnnouncementOnly: false,
        isDefault: true,
        dateCreated: now,
      });
      for (const user of humans) await repo.activate(user.id, general.id, pickColor(new Set()), now);
      await new UsersRepo(tx).setRealmNotificationsStream(realm.id, general.id);
    });
  }

  /** Subscribes a new user to the realm's default streams (for user creation), with events. */
  async subscribeToDefaultStreams(user: User): Promise<void> {
    const defaults = (await this.repo.all()).filter((s) => s.isDefault);
    if (defaults.length === 0) return;
    const now = this.nowSeconds();
    const added: { user: User; stream: Stream }[] = [];
    await this.db.transaction(async (tx) => {
      const repo = new StreamsRepo(tx);
      const used = new Set(await repo.colorsOf(user.id));
      for (const stream of defaults) {
        if (await repo.isSubscribed(user.id, stream.id)) continue;
        const color = pickColor(used);
        used.add(color);
        await repo.activate(user.id, stream.id, color, now);
        added.push({ user, stream });
      }
    });
    await this.publishSubscribed([], added, new Map());
  }
}

/** Zulip's pick_color: the first palette colour the user has not used yet. */
export function pickColor(used: ReadonlySet<string>): string {
  const available = STREAM_ASSIGNMENT_COLORS.find((c) => !used.has(c));
  return available ?? STREAM_ASSIGNMENT_COLORS[used.size % STREAM_ASSIGNMENT_COLORS.length] ?? "#c2c2c2";
}

const markdown = new MarkdownIt({ html: false, linkify: true });

/** A stream description rendered as Zulip does (Markdown → HTML; empty stays empty). */
export function renderDescription(description: string): string {
  return description === "" ? "" : markdown.render(description).trim();
}

/** Users who may see the stream's subscriber list: private → subscribers and admins; public → every non-guest and the subscribers. */
function peersOf(stream: Stream, subscribers: readonly number[], everyone: readonly User[]): number[] {
  const extra = stream.inviteOnly ? everyone.filter((u) => isAdmin(u)) : everyone.filter((u) => !isGuest(u));
  return union(
    extra.map((u) => u.id),
    subscribers,
  );
}

function union(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function uniqueStreams(streams: readonly Stream[]): Stream[] {
  const seen = new Map<number, Stream>();
  for (const s of streams) if (!seen.has(s.id)) seen.set(s.id, s);
  return [...seen.values()];
}

/** Python's default string order (by code point), which Zulip sorts stream names with. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Zulip's PrincipalError: an unknown or deactivated user among `principals` (403 before FL208). */
export class PrincipalError extends UnauthorizedPrincipalError {
  override readonly httpStatus = 403;
  constructor(principal: string | number) {
    super(`User not authorized to execute queries on behalf of '${principal}'`, principal);
  }
}
