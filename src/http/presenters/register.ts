import { profileFieldWire } from "../../domain/users/profile-fields.js";
import { streamWire, subscriptionWire } from "../../wire/streams.js";
import { avatarUrl } from "../../domain/users/avatar.js";
import { Role, isAdmin, isGuest } from "../../domain/users/types.js";
import type { User } from "../../domain/users/types.js";
import { botEventData } from "../../domain/users/user-service.js";
import { presentUser } from "./users.js";
import { USER_STATE_PROVIDERS } from "./register-user-state.js";
import type { StateContext, StateProvider } from "./types.js";
import { EMOJI_DATA_PATH } from "../routes/emoji-data.js";
import { USER_SETTINGS_ONLY } from "../../domain/settings/settings-service.js";
import { supportedPermissionSettingsWire } from "../../domain/user-groups/group-settings.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../../domain/events/render.js";
import { THUMBNAIL_FORMATS } from "../../domain/uploads/thumbnails.js";

/**
 * POST /register's initial state, built from state providers keyed by event type (Zulip's
 * fetch_initial_state_data). Each area adds one provider to STATE_PROVIDERS; a provider runs when
 * any of its event types is wanted (fetch_event_types, else event_types; null = all).
 */
/** Zulip's limits as register reports them. */
const LIMITS = {
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_topic_length: 60,
  max_message_length: 10000,
  event_queue_longpoll_timeout_seconds: 90,
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 140,
  server_typing_started_expiry_period_milliseconds: 15000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_wait_period_milliseconds: 10000,
};

/** The external-account profile field types every realm offers (Zulip's DEFAULT_EXTERNAL_ACCOUNTS). */
const DEFAULT_EXTERNAL_ACCOUNTS = {
  github: {
    name: "GitHub",
    text: "GitHub",
    hint: "Enter your GitHub username",
    url_pattern: "https://github.com/%(username)s",
  },
  twitter: {
    name: "Twitter",
    text: "Twitter",
    hint: "Enter your Twitter username",
    url_pattern: "https://twitter.com/%(username)s",
  },
};

/** How clients show the empty topic name ("general chat"). */

/** System bots (the Notification Bot) are Zulip's cross-realm bots: no owner. */
function isSystemBot(u: User): boolean {
  return u.isBot && u.botOwnerId === null;
}

function gravatarMedium(email: string): string {
  return avatarUrl(email).replace("?d=identicon&", "?d=identicon&s=500&");
}

const realmProvider: StateProvider = {
  eventTypes: ["realm"],
  async fetch({ services }) {
    const realm = await services.users.realm();
    const { config } = services;
    return {
      realm_name: realm.name,
      realm_description: realm.description,
      realm_uri: config.externalUrl,
      realm_url: config.externalUrl,
      realm_date_created: realm.dateCreated,
      realm_notifications_stream_id: realm.notificationsStreamId ?? -1,
      realm_bot_domain: config.botDomain,
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_invite_required: true,
      realm_is_zephyr_mirror_realm: false,
      realm_allow_message_editing: true,
      realm_allow_edit_history: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_message_content_delete_limit_seconds: null,
      realm_mandatory_topics: realm.topicsPolicy === "disable_empty_topic",
      realm_message_retention_days: -1,
      realm_waiting_period_threshold: 0,
      realm_default_language: "en",
      realm_presence_disabled: false,
      realm_push_notifications_enabled: false,
      realm_plan_type: 1,
      zulip_plan_is_not_limited: true,
      realm_enable_spectator_access: false,
      realm_icon_url: `${config.externalUrl}/static/images/logo/zulip-icon-128x128.png`,
      realm_icon_source: "G",
      // Anyone may mention everyone (Zulip's WILDCARD_MENTION_POLICY_EVERYONE).
      realm_wildcard_mention_policy: 1,
      realm_enable_read_receipts: true,
      realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
      // Where message reports go; -1: none, so clients offer no "report" action.
      realm_moderation_request_channel_id: realm.moderationRequestChannelId ?? -1,
      realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
      // "disable_empty_topic" (the default): a message to a channel needs a topic ("Topic can't be empty").
      realm_topics_policy: realm.topicsPolicy,
      // Group-based permission settings (src/domain/user-groups/group-permissions.ts).
      ...Object.fromEntries(
        Object.entries(await services.groupPermissions.realmSettings()).map(([name, value]) => [
          `realm_${name}`,
          value,
        ]),
      ),
      server_supported_permission_settings: supportedPermissionSettingsWire(),
      max_file_upload_size_mib: config.maxFileUploadMib,
      server_emoji_data_url: `${config.externalUrl}${EMOJI_DATA_PATH}`,
      server_thumbnail_formats: THUMBNAIL_FORMATS,
      ...LIMITS,
    };
  },
};

const realmUserProvider: StateProvider = {
  eventTypes: ["realm_user"],
  async fetch({ services, user, clientGravatar, allUsers }) {
    const all = await allUsers();
    const profile = await services.users.profileData(null);
    const present = (u: User, gravatar: boolean) =>
      presentUser(u, {
        clientGravatar: gravatar,
        includeIsActive: false,
        profileData: profile.get(u.id) ?? new Map(),
      });
    const permissions = services.groupPermissions;
    const realmSettings = await permissions.realmSettings();
    const canCreatePublic = await permissions.hasPermission(
      user,
      realmSettings.can_create_public_channel_group,
    );
    const canCreatePrivate = await permissions.hasPermission(
      user,
      realmSettings.can_create_private_channel_group,
    );
    const canAddSubscribers = await permissions.hasPermission(user, realmSettings.can_add_subscribers_group);
    // As InviteService.canInvite: bots make no invitation links.
    const canInvite =
      !user.isBot && (await permissions.hasPermission(user, realmSettings.can_invite_users_group));
    return {
      realm_users: all.filter((u) => u.isActive && !isSystemBot(u)).map((u) => present(u, clientGravatar)),
      realm_non_active_users: all
        .filter((u) => !u.isActive && !isSystemBot(u))
        .map((u) => present(u, clientGravatar)),
      cross_realm_bots: all
        .filter((u) => u.isActive && isSystemBot(u))
        .map((u) => ({ ...present(u, false), is_system_bot: true })),
      user_id: user.id,
      email: user.email,
      delivery_email: user.email,
      full_name: user.fullName,
      avatar_source: "G",
      avatar_url: avatarUrl(user.email),
      avatar_url_medium: gravatarMedium(user.email),
      is_admin: isAdmin(user),
      is_owner: user.role === Role.OWNER,
      is_moderator: user.role === Role.MODERATOR,
      is_guest: isGuest(user),
      is_billing_admin: false,
      can_create_streams: canCreatePublic || canCreatePrivate,
      can_create_public_streams: canCreatePublic,
      can_create_private_streams: canCreatePrivate,
      can_create_web_public_streams: false,
      can_subscribe_other_users: canAddSubscribers,
      can_invite_others_to_realm: canInvite,
    };
  },
};

const realmBotProvider: StateProvider = {
  eventTypes: ["realm_bot"],
  async fetch({ services, user, allUsers }) {
    const bots = (await allUsers()).filter(
      (u) => u.isBot && !isSystemBot(u) && (isAdmin(user) || u.botOwnerId === user.id),
    );
    const realmBots = await Promise.all(
      bots.map(async (bot) => ({
        ...botEventData(bot, await services.users.servicesOf(bot.id)),
        avatar_url: avatarUrl(bot.email),
      })),
    );
    return { realm_bots: realmBots };
  },
};

const customProfileFieldsProvider: StateProvider = {
  eventTypes: ["custom_profile_fields"],
  async fetch({ services }) {
    const fields = await services.users.profileFields();
    return {
      custom_profile_fields: fields.map(profileFieldWire),
    };
  },
};

const globalNotificationsProvider: StateProvider = {
  eventTypes: ["update_global_notifications"],
  async fetch({ services, user, capabilities }) {
    // Clients with the user_settings_object capability read `user_settings` instead.
    if (capabilities["user_settings_object"] === true) return {};
    return { ...(await services.streams.notificationSettings(user.id)) };
  },
};

const displaySettingsProvider: StateProvider = {
  eventTypes: ["update_display_settings"],
  async fetch({ services, user, capabilities }) {
    // Clients with the user_settings_object capability read `user_settings` instead.
    if (capabilities["user_settings_object"] === true) return {};
    // Settings newer than the legacy top-level format live only in `user_settings`.
    const legacy: Record<string, unknown> = { ...(await services.settings.display(user.id)) };
    for (const name of USER_SETTINGS_ONLY) delete legacy[name];
    return { ...legacy, timezone: user.timezone };
  },
};

const userSettingsProvider: StateProvider = {
  eventTypes: ["user_settings"],
  async fetch({ services, user }) {
    const notifications = await services.streams.notificationSettings(user.id);
    const display = await services.settings.display(user.id);
    return { user_settings: { ...display, timezone: user.timezone, ...notifications } };
  },
};

const messageProvider: StateProvider = {
  eventTypes: ["message"],
  async fetch({ services, user }) {
    return { max_message_id: await services.maxMessageId(user.id) };
  },
};

const unreadMsgsProvider: StateProvider = {
  eventTypes: ["message", "update_message_flags"],
  requireAll: true,
  async fetch({ services, user }) {
    return { unread_msgs: await services.messages.unreadMessages(user.id) };
  },
};

const subscriptionProvider: StateProvider = {
  eventTypes: ["subscription"],
  async fetch({ services, user, includeSubscribers }) {
    const { streams } = services;
    const subscribed = await streams.subscriptionsWithStreams(user, includeSubscribers);
    const subscribedIds = new Set(subscribed.map((s) => s.stream.id));
    const others = (
      await streams.listStreams(user, {
        includePublic: true,
        includeWebPublic: false,
        includeSubscribed: false,
        includeAllActive: false,
        includeOwnerSubscribed: false,
      })
    ).filter((s) => !subscribedIds.has(s.id));
    const subscribers = includeSubscribers
      ? await streams.subscriberIdsOf(others.map((s) => s.id))
      : undefined;
    return {
      subscriptions: subscribed.map((s) => subscriptionWire(s.stream, s.subscription, s.subscribers)),
      // Needs the user's inactive subscriptions, which StreamService does not list yet.
      unsubscribed: [],
      never_subscribed: others.map((s) =>
        subscribers === undefined
          ? streamWire(s)
          : { ...streamWire(s), subscribers: subscribers.get(s.id) ?? [] },
      ),
    };
  },
};

const mutedTopicsProvider: StateProvider = {
  eventTypes: ["muted_topics"],
  async fetch({ services, user, fetchEventTypes, want }) {
    // Zulip omits muted_topics for clients that explicitly asked for user_topic.
    if (fetchEventTypes !== null && want("user_topic")) return {};
    return { muted_topics: await services.streams.mutedTopics(user.id) };
  },
};

const streamProvider: StateProvider = {
  eventTypes: ["stream"],
  async fetch({ services, user }) {
    const streams = await services.streams.listStreams(user, {
      includePublic: true,
      includeWebPublic: false,
      includeSubscribed: true,
      includeAllActive: false,
      includeOwnerSubscribed: false,
    });
    return { streams: streams.map(streamWire) };
  },
};

/** The registry: one entry per area. */
export const STATE_PROVIDERS: readonly StateProvider[] = [
  realmProvider,
  realmUserProvider,
  realmBotProvider,
  customProfileFieldsProvider,
  globalNotificationsProvider,
  userSettingsProvider,
  messageProvider,
  unreadMsgsProvider,
  subscriptionProvider,
  mutedTopicsProvider,
  streamProvider,
  displaySettingsProvider,
  ...USER_STATE_PROVIDERS,
];

/** Runs every provider the fetch types select and merges their fields. */
export async function initialState(
  opts: Omit<StateContext, "want" | "allUsers">,
  providers: readonly StateProvider[] = STATE_PROVIDERS,
): Promise<Record<string, unknown>> {
  const types = opts.fetchEventTypes === null ? null : new Set(opts.fetchEventTypes);
  const want = (t: string): boolean => types === null || types.has(t);
  let users: Promise<User[]> | undefined;
  const ctx: StateContext = {
    ...opts,
    want,
    allUsers: () => (users ??= opts.services.users.allUsers()),
  };
  const state: Record<string, unknown> = {};
  for (const p of providers) {
    const selected = p.requireAll === true ? p.eventTypes.every(want) : p.eventTypes.some(want);
    if (selected) Object.assign(state, await p.fetch(ctx));
  }
  return state;
}
