import type { GroupSettingValue, StreamPermissionName } from "../user-groups/group-settings.js";

/** A stream's group-based permission settings that were set; an absent one has its default (see permissions.ts). */
export type StreamGroupSettings = Partial<Record<StreamPermissionName, GroupSettingValue>>;

/** A channel's `topics_policy` values (Zulip 11, feature levels 392/404). */
export const STREAM_TOPICS_POLICIES = [
  "inherit",
  "allow_empty_topic",
  "disable_empty_topic",
  "empty_topic_only",
] as const;
export type StreamTopicsPolicy = (typeof STREAM_TOPICS_POLICIES)[number];

/** A stream (Zulip's "channel"): named, with topics inside. Times are unix seconds. */
export interface Stream {
  id: number;
  realmId: number;
  name: string;
  description: string;
  renderedDescription: string;
  /** Private stream: only subscribers see its name, subscribers and messages. */
  inviteOnly: boolean;
  /** Whether new subscribers can read the messages sent before they subscribed. */
  historyPublicToSubscribers: boolean;
  /** Only organization administrators may post. */
  isAnnouncementOnly: boolean;
  isWebPublic: boolean;
  /** New users are subscribed to default streams (GET /streams `is_default`). */
  isDefault: boolean;
  dateCreated: number;
  /** The user who created it; null for "general" and streams made before this was recorded. */
  creatorId: number | null;
  /** The oldest message still in the stream; null while empty. */
  firstMessageId: number | null;
  /** Archived (DELETE /streams/{id}): nobody can see or post to it any more. */
  isArchived: boolean;
  /** Whether its messages may (or must) have an empty topic; "inherit": the realm's `topics_policy`. */
  topicsPolicy: StreamTopicsPolicy;
  /** Who may post, subscribe, unsubscribe others, administer it (Zulip's `can_*_group`). */
  groupSettings: StreamGroupSettings;
}

/** One user's subscription to one stream, with its per-stream settings. */
export interface Subscription {
  userId: number;
  streamId: number;
  /** False after unsubscribing (the row keeps the settings for a later resubscription). */
  active: boolean;
  /** "#rrggbb" (or "#rgb"). */
  color: string;
  isMuted: boolean;
  pinToTop: boolean;
  /** null = follow the user's global notification setting. */
  desktopNotifications: boolean | null;
  audibleNotifications: boolean | null;
  pushNotifications: boolean | null;
  emailNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
  dateSubscribed: number;
}

/** A user's muted topic as register and the `muted_topics` event show it: [stream name, topic, unix seconds]. */
export type MutedTopic = [streamName: string, topic: string, dateMuted: number];

/** The per-subscription properties of POST /users/me/subscriptions/properties. */
export const SUBSCRIPTION_PROPERTIES = [
  "color",
  "is_muted",
  "in_home_view",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

/** Zulip's Stream.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH. */
export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

/** Zulip's STREAM_ASSIGNMENT_COLORS: a new subscription takes the first colour the user has not used. */
export const STREAM_ASSIGNMENT_COLORS = [
  "#76ce90",
  "#fae589",
  "#a6c7e5",
  "#e79ab5",
  "#bfd56f",
  "#f4ae55",
  "#b0a5fd",
  "#addfe5",
  "#f5ce6e",
  "#c2726a",
  "#94c849",
  "#bd86e5",
  "#ee7e4a",
  "#a6dcbf",
  "#95a5fd",
  "#53a063",
  "#9987e1",
  "#e4523d",
  "#c2c2c2",
  "#4f8de4",
  "#c6a8ad",
  "#e7cc4d",
  "#c8bebf",
  "#a47462",
] as const;
