import { JsonableError } from "../../errors.js";
import type { StreamsRepo } from "../../store/streams-repo.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import type { MutedTopic, Stream, Subscription } from "./types.js";

/**
 * Who may see, read and post to a stream, and the read-only lookups other areas need (the port
 * the messages area is given). The byName/byId/byIds/allStreams lookups do no access check: callers that answer a
 * user use the accessible* methods.
 */
export class StreamAccess {
  constructor(private readonly repo: StreamsRepo) {}

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

  /**
   * Whether `user` may read the stream's messages and see its name and subscribers: subscribers
   * always; everyone but guests for public streams. (Zulip's access_stream_*.)
   */
  async canAccess(user: User, stream: Stream): Promise<boolean> {
    // An archived stream keeps its history (Zulip 10): readable as before, closed to posting.
    if (!stream.inviteOnly && !isGuest(user)) return true;
    return this.repo.isSubscribed(user.id, stream.id);
  }

  /**
   * Whether `user` may post to the stream (Zulip's access_stream_for_send_message): announcement-only
   * streams take only administrators; private streams only subscribers (a bot also when its owner is
   * subscribed); guests only streams they are subscribed to.
   */
  async canPost(user: User, stream: Stream): Promise<boolean> {
    if (stream.isArchived) return false;
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
    // An archived stream is not found by name (Zulip's access_stream_by_name requires an active one).
    if (stream === undefined || stream.isArchived || !(await this.canAccess(user, stream))) {
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

  /**
   * GET /streams/{id}: a stream the user can access (administrators also private ones, as in
   * Zulip), archived ones too (with `is_archived`, Zulip 10.0); otherwise "Invalid stream ID".
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
   * Called by the messages area after a stream message is stored: sets the stream's
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
}
