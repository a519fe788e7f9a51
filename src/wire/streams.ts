import { streamSettings } from "../domain/streams/permissions.js";
import type { Stream, Subscription } from "../domain/streams/types.js";

/**
 * Zulip's wire shapes of streams and subscriptions, shared by the HTTP presenters and the events
 * (GET /streams, `stream` create events: BasicChannel; GET /users/me/subscriptions, `subscription`
 * add events: Subscription).
 */
export function streamWire(stream: Stream): Record<string, unknown> {
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.renderedDescription,
    date_created: stream.dateCreated,
    invite_only: stream.inviteOnly,
    is_web_public: stream.isWebPublic,
    stream_post_policy: stream.isAnnouncementOnly ? 2 : 1,
    message_retention_days: null,
    history_public_to_subscribers: stream.historyPublicToSubscribers,
    first_message_id: stream.firstMessageId,
    is_announcement_only: stream.isAnnouncementOnly,
    stream_weekly_traffic: null,
    // Newer fields (Zulip 8.0 to 10.0): every channel counts as recently active.
    is_archived: stream.isArchived,
    creator_id: stream.creatorId,
    is_recently_active: true,
    topics_policy: stream.topicsPolicy,
    // Group-based permissions (src/domain/streams/permissions.ts): can_add_subscribers_group,
    // can_administer_channel_group, can_remove_subscribers_group, can_send_message_group,
    // can_subscribe_group.
    ...streamSettings(stream),
  };
}

/** A Subscription object; `subscribers` only when asked for (include_subscribers). */
export function subscriptionWire(
  stream: Stream,
  sub: Subscription,
  subscribers?: readonly number[],
): Record<string, unknown> {
  return {
    ...streamWire(stream),
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    audible_notifications: sub.audibleNotifications,
    push_notifications: sub.pushNotifications,
    email_notifications: sub.emailNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
    // The list itself, not a copy: subscribing n users sends n events with the same list.
    ...(subscribers === undefined ? {} : { subscribers }),
  };
}

/** A stream of GET /streams (Zulip's BasicChannel); `is_default` only when asked for. */
export function streamListWire(stream: Stream, opts: { includeDefault: boolean }): Record<string, unknown> {
  return opts.includeDefault ? { ...streamWire(stream), is_default: stream.isDefault } : streamWire(stream);
}
