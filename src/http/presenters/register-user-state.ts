import { presencesWire } from "../../domain/presence/presence-service.js";
import { linkifierWire } from "../../domain/linkifiers/linkifiers-service.js";
import { userGroupWire } from "../../domain/user-groups/user-groups-service.js";
import { pmIds } from "../../domain/messages/content.js";
import { configOptionsOf, urlOptionsOf } from "../../domain/webhooks/integration-summary.js";
import type { StateProvider } from "./types.js";

/**
 * Register's state for the areas of issue 18: presence, user status, starred messages, recent
 * conversations, user topics, and the features not built yet answered as empty-but-correct state
 * (no custom emoji, linkifiers, playgrounds, drafts, … exist until they are built), so a client that
 * asks for any event type Zulip knows gets the key it reads.
 */

/** At most this many conversations in `recent_private_conversations` (Zulip's limit). */
const MAX_RECENT_CONVERSATIONS = 1000;

const presenceProvider: StateProvider = {
  eventTypes: ["presence"],
  async fetch({ services, slimPresence, allUsers }) {
    const emails = new Map((await allUsers()).map((u) => [u.id, u.email]));
    return {
      presences: presencesWire(await services.presence.recent(), (id) => emails.get(id), slimPresence),
      server_timestamp: services.presence.serverTimestamp(),
    };
  },
};

const userStatusProvider: StateProvider = {
  eventTypes: ["user_status"],
  async fetch({ services }) {
    return { user_status: await services.userStatus.all() };
  },
};

const starredMessagesProvider: StateProvider = {
  eventTypes: ["starred_messages"],
  async fetch({ services, user }) {
    return { starred_messages: await services.userState.starredMessageIds(user.id) };
  },
};

const recentConversationsProvider: StateProvider = {
  eventTypes: ["recent_private_conversations"],
  async fetch({ services, user }) {
    const rows = await services.userState.recentConversations(user.id, MAX_RECENT_CONVERSATIONS);
    return {
      recent_private_conversations: rows.map((r) => ({
        max_message_id: r.maxMessageId,
        // The other participants; a conversation with oneself lists nobody.
        user_ids: pmIds(r).filter((id) => id !== user.id),
      })),
    };
  },
};

const userTopicsProvider: StateProvider = {
  eventTypes: ["user_topic"],
  async fetch({ services, user }) {
    return { user_topics: await services.streams.userTopics(user.id) };
  },
};

const userGroupsProvider: StateProvider = {
  eventTypes: ["realm_user_groups"],
  async fetch({ services }) {
    return { realm_user_groups: (await services.userGroups.list()).map(userGroupWire) };
  },
};

const alertWordsProvider: StateProvider = {
  eventTypes: ["alert_words"],
  async fetch({ services, user }) {
    return { alert_words: await services.personalLists.alertWords(user) };
  },
};

const mutedUsersProvider: StateProvider = {
  eventTypes: ["muted_users"],
  async fetch({ services, user }) {
    return { muted_users: await services.personalLists.mutedUsers(user) };
  },
};

const linkifiersProvider: StateProvider = {
  eventTypes: ["realm_linkifiers"],
  async fetch({ services }) {
    return { realm_linkifiers: (await services.linkifiers.list()).map(linkifierWire) };
  },
};

const realmFiltersProvider: StateProvider = {
  eventTypes: ["realm_filters"],
  async fetch({ services }) {
    return { realm_filters: (await services.linkifiers.list()).map((l) => [l.pattern, l.urlTemplate, l.id]) };
  },
};

const realmEmojiProvider: StateProvider = {
  eventTypes: ["realm_emoji"],
  async fetch({ services }) {
    return { realm_emoji: await services.customEmoji.all() };
  },
};

const draftsProvider: StateProvider = {
  eventTypes: ["drafts"],
  async fetch({ services, user }) {
    return { drafts: await services.drafts.list(user) };
  },
};

const savedSnippetsProvider: StateProvider = {
  eventTypes: ["saved_snippets"],
  async fetch({ services, user }) {
    return { saved_snippets: await services.savedSnippets.list(user) };
  },
};

const remindersProvider: StateProvider = {
  eventTypes: ["reminders"],
  async fetch({ services, user }) {
    return { reminders: await services.reminders.list(user) };
  },
};

const scheduledMessagesProvider: StateProvider = {
  eventTypes: ["scheduled_messages"],
  async fetch({ services, user }) {
    return { scheduled_messages: await services.scheduledMessages.list(user) };
  },
};

const defaultStreamsProvider: StateProvider = {
  eventTypes: ["default_streams"],
  async fetch({ services }) {
    // Channel ids since Zulip 10.0 (feature level 330), as in default_streams events.
    return { realm_default_streams: (await services.streams.defaultStreams()).map((s) => s.id) };
  },
};

const incomingWebhookBotsProvider: StateProvider = {
  eventTypes: ["realm_incoming_webhook_bots"],
  fetch({ services }) {
    return Promise.resolve({
      realm_incoming_webhook_bots: services.webhooks.list().map((i) => ({
        name: i.name,
        display_name: i.displayName,
        all_event_types: i.eventTypes.length === 0 ? null : [...i.eventTypes],
        config_options: configOptionsOf(i),
        url_options: urlOptionsOf(i),
      })),
    });
  },
};

/** State of features this server does not have (yet): what Zulip answers when none exist. */
const EMPTY_STATE: readonly [eventType: string, state: Record<string, unknown>][] = [
  ["realm_playgrounds", { realm_playgrounds: [] }],
  ["realm_domains", { realm_domains: [] }],
  ["default_stream_groups", { realm_default_stream_groups: [] }],
  ["video_calls", { has_zoom_token: false }],
  ["giphy", { giphy_api_key: "" }],
  ["stop_words", { stop_words: [] }],
];

const emptyProviders: StateProvider[] = EMPTY_STATE.map(([eventType, state]) => ({
  eventTypes: [eventType],
  fetch: () => Promise.resolve(structuredClone(state)),
}));

/** The providers this file adds to register's registry. */
export const USER_STATE_PROVIDERS: readonly StateProvider[] = [
  presenceProvider,
  userStatusProvider,
  starredMessagesProvider,
  recentConversationsProvider,
  userTopicsProvider,
  defaultStreamsProvider,
  userGroupsProvider,
  alertWordsProvider,
  mutedUsersProvider,
  linkifiersProvider,
  realmFiltersProvider,
  realmEmojiProvider,
  draftsProvider,
  savedSnippetsProvider,
  remindersProvider,
  scheduledMessagesProvider,
  incomingWebhookBotsProvider,
  ...emptyProviders,
];
