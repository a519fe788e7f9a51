import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import { silentLogger } from "../../lib/logger.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { User } from "../users/types.js";
import type { PermissionChecker } from "../user-groups/group-permissions.js";
import { StreamAccess } from "./access.js";
import { ensureDefaultStreams, subscribeToDefaultStreams } from "./defaults.js";
import { listStreams, subscriptionsWithStreams } from "./listing.js";
import type { StreamFilter } from "./listing.js";
import { updateMutedTopic, updateUserTopic } from "./muting.js";
import { archiveStream, setDefaultStream, updateStream } from "./manage.js";
import type { StreamChanges } from "./manage.js";
import { JsonableError } from "../../errors.js";
import type { MutedTopicChange } from "./muting.js";
import { NotificationSettingsStore } from "./notification-settings.js";
import type { NotificationSettings } from "./notification-settings.js";
import type { NoticeSender, StreamDeps, UserDirectory } from "./ports.js";
import { updateSubscriptionProperties } from "./properties.js";
import type { PropertyChange } from "./properties.js";
import { subscribe } from "./subscribe.js";
import type { StreamSpec, SubscribeOptions, SubscribeOutcome } from "./subscribe.js";
import type { Stream, Subscription } from "./types.js";
import { unsubscribe } from "./unsubscribe.js";

export interface StreamServiceDeps {
  store: RepoStore;
  events: EventSink;
  clock: Clock;
  users: UserDirectory;
  /** The read side, shared with the messages area. */
  access: StreamAccess;
  /** Posts announcements and Notification Bot notices; undefined → none are posted. */
  notices?: NoticeSender | undefined;
  logger?: Logger | undefined;
  /** Group-based permission settings (src/domain/user-groups/group-permissions.ts). */
  permissions?: PermissionChecker | undefined;
}

/**
 * Streams, subscriptions and muted topics: the entry point routes use. Each operation lives in its
 * own use-case module (access, subscribe, unsubscribe, properties, muting, listing, defaults); the
 * read-side lookups are those of StreamAccess, which this class extends.
 */
export class StreamService extends StreamAccess {
  private readonly deps: StreamDeps;
  private readonly settings: NotificationSettingsStore;

  constructor(deps: StreamServiceDeps) {
    super(deps.store.read.streams);
    this.deps = {
      store: deps.store,
      events: deps.events,
      clock: deps.clock,
      users: deps.users,
      access: deps.access,
      notices: deps.notices,
      logger: deps.logger ?? silentLogger,
      permissions: deps.permissions,
    };
    this.settings = new NotificationSettingsStore(deps.store, deps.events);
  }

  /** POST /users/me/subscriptions (see subscribe.ts). */
  async subscribe(
    actor: User,
    specs: readonly StreamSpec[],
    opts: SubscribeOptions,
  ): Promise<SubscribeOutcome> {
    return subscribe(this.deps, actor, specs, opts);
  }

  /** DELETE /users/me/subscriptions (see unsubscribe.ts). */
  async unsubscribe(
    actor: User,
    names: readonly string[],
    principals: readonly (string | number)[] | undefined,
  ): Promise<{ removed: string[]; notRemoved: string[] }> {
    return unsubscribe(this.deps, actor, names, principals);
  }

  /** POST /users/me/subscriptions/properties (see properties.ts). */
  async updateSubscriptionProperties(user: User, changes: readonly PropertyChange[]): Promise<void> {
    return updateSubscriptionProperties(this.deps, user, changes);
  }

  /** PATCH /users/me/subscriptions/muted_topics (see muting.ts). */
  async updateMutedTopic(user: User, args: MutedTopicChange): Promise<void> {
    return updateMutedTopic(this.deps, user, args);
  }

  /** POST /user_topics (see muting.ts). */
  async updateUserTopic(
    user: User,
    args: { streamId: number; topic: string; policy: number },
  ): Promise<void> {
    return updateUserTopic(this.deps, user, args);
  }

  /**
   * Register's `user_topics`: muted topics (policy 1) and followed (3) or unmuted (2) ones, oldest
   * change first, as Zulip's UserTopic objects.
   */
  async userTopics(
    userId: number,
  ): Promise<{ stream_id: number; topic_name: string; last_updated: number; visibility_policy: number }[]> {
    const repo = this.deps.store.read.streams;
    const muted = (await repo.mutedTopicRows(userId)).map((r) => ({
      stream_id: r.streamId,
      topic_name: r.topic,
      last_updated: r.dateMuted,
      visibility_policy: 1,
    }));
    const others = (await repo.topicPolicies(userId)).map((r) => ({
      stream_id: r.streamId,
      topic_name: r.topic,
      last_updated: r.lastUpdated,
      visibility_policy: r.policy,
    }));
    return [...muted, ...others].sort((a, b) => a.last_updated - b.last_updated || a.stream_id - b.stream_id);
  }

  /** PATCH /streams/{id} (see manage.ts). */
  async updateStream(actor: User, streamId: number, changes: StreamChanges): Promise<void> {
    return updateStream(this.deps, actor, streamId, changes);
  }

  /** DELETE /streams/{id}: archives the stream. */
  async archiveStream(actor: User, streamId: number): Promise<void> {
    return archiveStream(this.deps, actor, streamId);
  }

  /** POST/DELETE /default_streams. */
  async setDefaultStream(actor: User, streamId: number, isDefault: boolean): Promise<void> {
    return setDefaultStream(this.deps, actor, streamId, isDefault);
  }

  /** GET /users/{user_id}/subscriptions/{stream_id}: whether that user is subscribed. */
  async subscriptionStatus(actor: User, userId: number, streamId: number): Promise<boolean> {
    const stream = await this.accessibleById(actor, streamId);
    const user = await this.deps.users.byId(userId);
    if (user === undefined) throw new JsonableError("No such user");
    return this.isSubscribed(user.id, stream.id);
  }

  /** GET /users/me/subscriptions: the user's subscriptions with their streams, by stream name. */
  async subscriptionsWithStreams(
    user: User,
    includeSubscribers: boolean,
  ): Promise<{ stream: Stream; subscription: Subscription; subscribers: number[] | undefined }[]> {
    return subscriptionsWithStreams(this.deps, user, includeSubscribers);
  }

  /** GET /streams (see listing.ts). */
  async listStreams(user: User, filter: StreamFilter): Promise<Stream[]> {
    return listStreams(this.deps, user, filter);
  }

  /** The user's global notification settings (register's `enable_*` fields), defaults included. */
  async notificationSettings(userId: number): Promise<NotificationSettings> {
    return this.settings.get(userId);
  }

  /**
   * PATCH /settings/notifications: saves the typed `changes` and returns only the settings whose
   * value changed; one `update_global_notifications` event each. Bots are refused.
   */
  async updateNotificationSettings(
    user: User,
    changes: Partial<NotificationSettings>,
  ): Promise<Partial<NotificationSettings>> {
    return this.settings.update(user, changes);
  }

  /** First start: the default stream "general" (see defaults.ts). */
  async ensureDefaultStreams(): Promise<void> {
    return ensureDefaultStreams(this.deps);
  }

  /** The realm's default streams (register's `realm_default_streams`). */
  async defaultStreams(): Promise<Stream[]> {
    return (await this.deps.store.read.streams.all()).filter((s) => s.isDefault && !s.isArchived);
  }

  /** Subscribes a new user to the realm's default streams, with events. */
  async subscribeToDefaultStreams(user: User): Promise<void> {
    return subscribeToDefaultStreams(this.deps, user);
  }
}
