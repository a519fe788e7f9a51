import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { ParamValue } from "../helpers/client.js";
import type { Credentials } from "../helpers/client.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const GRAVATAR = "https://secure.gravatar.com/avatar/";
const JOINED = "2026-01-01T00:00:00.000+00:00";

/** Fields every register response has. */
const HEAD = {
  result: "success",
  msg: "",
  queue_id: expect.stringMatching(UUID4),
  last_event_id: -1,
  zulip_version: "11.0",
  zulip_feature_level: 421,
  zulip_merge_base: "11.0",
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

/** The `streams` section is checked against Zulip's schema like every other (it has can_remove_subscribers_group). */
const STREAMS_SCHEMA_GAP = { skipSchemaCheck: false };

/** POST /register (the shared client also checks the body against Zulip's OpenAPI schema). */
async function register(
  as: Credentials,
  params: Record<string, ParamValue | undefined>,
  opts: { skipSchemaCheck?: boolean } = {},
) {
  const request = { as, params, ...opts };
  const res = await server!.api.post("/api/v1/register", request);
  expect(res.status).toBe(200);
  return res.body;
}

function member(id: number, email: string, fullName: string, hash: string | null, role = 400) {
  return {
    user_id: id,
    email,
    full_name: fullName,
    is_bot: false,
    is_admin: role <= 200,
    is_owner: role === 100,
    is_guest: role === 600,
    role,
    bot_type: null,
    avatar_url: hash === null ? null : `${GRAVATAR}${hash}?d=identicon&version=1`,
    avatar_version: 1,
    timezone: "",
    date_joined: JOINED,
    profile_data: {},
  };
}

/** Zulip's GroupPermissionSetting of each setting this server implements (defaults as in Zulip). */
const setting = (
  default_group_name: string,
  allow_everyone_group: boolean,
  default_for_system_groups: string | null = null,
) => ({
  require_system_group: false,
  allow_internet_group: false,
  allow_nobody_group: true,
  allow_everyone_group,
  default_group_name,
  default_for_system_groups,
  allowed_system_groups: [],
});
const SUPPORTED_PERMISSION_SETTINGS = {
  realm: {
    can_add_subscribers_group: setting("role:members", false),
    can_create_private_channel_group: setting("role:members", false),
    can_create_public_channel_group: setting("role:members", false),
    can_invite_users_group: setting("role:administrators", false),
    create_multiuse_invite_group: setting("role:administrators", false),
  },
  stream: {
    can_add_subscribers_group: setting("role:nobody", false),
    can_administer_channel_group: setting("role:nobody", false),
    can_remove_subscribers_group: setting("role:administrators", true),
    can_send_message_group: setting("role:everyone", true),
    can_subscribe_group: setting("role:nobody", false),
  },
  group: { can_mention_group: setting("role:everyone", true, "role:nobody") },
};

describe("POST /api/v1/register", () => {
  it("always answers queue_id, last_event_id and the versions", async () => {
    const { users } = await start();
    expect(await register(users.hamlet, { fetch_event_types: [] })).toEqual(HEAD);
  });

  it("answers realm_user: users without is_active, the system bots, and the current user", async () => {
    const { users } = await start();
    expect(await register(users.hamlet, { fetch_event_types: ["realm_user"] })).toEqual({
      ...HEAD,
      realm_users: [
        member(1, "iago@zulip.com", "Iago", null, 100),
        member(3, "hamlet@zulip.com", "King Hamlet", null),
        member(4, "othello@zulip.com", "Othello, the Moor of Venice", null),
        member(5, "cordelia@zulip.com", "Cordelia, Lear's daughter", null),
        member(6, "polonius@zulip.com", "Polonius", null, 600),
        {
          user_id: 7,
          email: "webhook-bot@zulip.com",
          full_name: "Zulip Webhook Bot",
          is_bot: true,
          is_admin: false,
          is_owner: false,
          is_guest: false,
          role: 400,
          bot_type: 2,
          avatar_url: null,
          avatar_version: 1,
          timezone: "",
          date_joined: JOINED,
          bot_owner_id: 1,
        },
      ],
      realm_non_active_users: [],
      cross_realm_bots: [
        {
          user_id: 2,
          email: "notification-bot@zulip.com",
          full_name: "Notification Bot",
          is_bot: true,
          is_admin: false,
          is_owner: false,
          is_guest: false,
          role: 400,
          bot_type: 1,
          avatar_url: `${GRAVATAR}0fc5476bdf03fe8640cc8fbc27a47549?d=identicon&version=1`,
          avatar_version: 1,
          timezone: "",
          date_joined: JOINED,
          bot_owner_id: null,
          is_system_bot: true,
        },
      ],
      user_id: 3,
      email: "hamlet@zulip.com",
      delivery_email: "hamlet@zulip.com",
      full_name: "King Hamlet",
      avatar_source: "G",
      avatar_url: `${GRAVATAR}6d8cad0fd00256e7b40691d27ddfd466?d=identicon&version=1`,
      avatar_url_medium: `${GRAVATAR}6d8cad0fd00256e7b40691d27ddfd466?d=identicon&s=500&version=1`,
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      is_billing_admin: false,
      can_create_streams: true,
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_create_web_public_streams: false,
      can_subscribe_other_users: true,
      can_invite_others_to_realm: false,
    });
  });

  it("gives avatar URLs with client_gravatar=false, and a guest's permissions", async () => {
    const { users } = await start();
    const body = await register(users.polonius, {
      fetch_event_types: ["realm_user"],
      client_gravatar: false,
    });
    expect(body.realm_users[1]).toEqual(
      member(3, "hamlet@zulip.com", "King Hamlet", "6d8cad0fd00256e7b40691d27ddfd466"),
    );
    expect([
      body.user_id,
      body.is_guest,
      body.can_create_streams,
      body.can_subscribe_other_users,
      body.can_invite_others_to_realm,
    ]).toEqual([6, true, false, false, false]);
  });

  it("lists deactivated users under realm_non_active_users", async () => {
    const { users, running } = await start();
    await running.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [users.cordelia.id]);
    const body = await register(users.hamlet, { fetch_event_types: ["realm_user"] });
    expect(body.realm_non_active_users).toEqual([
      member(5, "cordelia@zulip.com", "Cordelia, Lear's daughter", null),
    ]);
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([1, 3, 4, 6, 7]);
  });

  it("answers realm_bot: every bot for an administrator, one's own bots for a member", async () => {
    const { api, users } = await start();
    const webhookBot = {
      email: "webhook-bot@zulip.com",
      user_id: 7,
      full_name: "Zulip Webhook Bot",
      bot_type: 2,
      is_active: true,
      api_key: users.webhookBot.apiKey,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      avatar_url: `${GRAVATAR}908ae87048d784a769dcc8f0984129ae?d=identicon&version=1`,
      owner_id: 1,
      services: [],
    };
    expect(await register(users.iago, { fetch_event_types: ["realm_bot"] })).toEqual({
      ...HEAD,
      realm_bots: [webhookBot],
    });
    expect(await register(users.hamlet, { fetch_event_types: ["realm_bot"] })).toEqual({
      ...HEAD,
      realm_bots: [],
    });
    const created = await api.post("/api/v1/bots", {
      as: users.hamlet,
      params: {
        full_name: "Hamlet's Helper",
        short_name: "helper",
        bot_type: 3,
        payload_url: JSON.stringify("https://bots.example.com/helper"),
      },
    });
    expect(created.status).toBe(200);
    const body = await register(users.hamlet, { fetch_event_types: ["realm_bot"] });
    expect(body).toEqual({
      ...HEAD,
      realm_bots: [
        {
          email: "helper-bot@zulip.com",
          user_id: 8,
          full_name: "Hamlet's Helper",
          bot_type: 3,
          is_active: true,
          api_key: created.body.api_key,
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
          avatar_url: `${GRAVATAR}779bba504fbc3367864bb1053516263f?d=identicon&version=1`,
          owner_id: 3,
          services: [
            {
              base_url: "https://bots.example.com/helper",
              interface: 1,
              token: created.body.services[0].token,
            },
          ],
        },
      ],
    });
  });

  it("answers realm: the organization's settings and Zulip's limits", async () => {
    const { url, users } = await start();
    expect(await register(users.hamlet, { fetch_event_types: ["realm"] })).toEqual({
      ...HEAD,
      realm_name: "Zulip Dev",
      realm_description: "",
      realm_uri: url,
      realm_url: url,
      realm_date_created: 1767225600,
      realm_notifications_stream_id: 1,
      realm_bot_domain: "zulip.com",
      // The members' system group (5) by default.
      realm_can_add_subscribers_group: 5,
      realm_can_create_private_channel_group: 5,
      realm_can_create_public_channel_group: 5,
      // Invitation links: the administrators' system group (2) by default.
      realm_can_invite_users_group: 2,
      realm_create_multiuse_invite_group: 2,
      server_supported_permission_settings: SUPPORTED_PERMISSION_SETTINGS,
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_invite_required: true,
      realm_is_zephyr_mirror_realm: false,
      realm_allow_message_editing: true,
      realm_allow_edit_history: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_message_content_delete_limit_seconds: null,
      realm_mandatory_topics: true,
      realm_message_retention_days: -1,
      realm_waiting_period_threshold: 0,
      realm_default_language: "en",
      realm_presence_disabled: false,
      realm_push_notifications_enabled: false,
      realm_plan_type: 1,
      zulip_plan_is_not_limited: true,
      realm_enable_spectator_access: false,
      realm_icon_url: `${url}/static/images/logo/zulip-icon-128x128.png`,
      realm_icon_source: "G",
      realm_wildcard_mention_policy: 1,
      realm_enable_read_receipts: true,
      realm_default_external_accounts: {
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
      },
      realm_moderation_request_channel_id: -1,
      realm_empty_topic_display_name: "general chat",
      realm_topics_policy: "disable_empty_topic",
      max_file_upload_size_mib: 25,
      server_emoji_data_url: `${url}/static/generated/emoji/emoji_api.json`,
      server_thumbnail_formats: [
        { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
      ],
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
    });
  });

  const NOTIFICATIONS = {
    enable_stream_desktop_notifications: false,
    enable_stream_email_notifications: false,
    enable_stream_push_notifications: false,
    enable_stream_audible_notifications: false,
    notification_sound: "zulip",
    enable_desktop_notifications: true,
    enable_sounds: true,
    enable_offline_email_notifications: true,
    enable_offline_push_notifications: true,
    enable_online_push_notifications: true,
    enable_digest_emails: true,
    enable_login_emails: true,
    message_content_in_email_notifications: true,
    pm_content_in_desktop_notifications: true,
    wildcard_mentions_notify: true,
    desktop_icon_count_display: 1,
    realm_name_in_notifications: false,
  };

  it("answers update_global_notifications with the user's settings, unless user_settings_object", async () => {
    const { api, users } = await start();
    const changed = await api.patch("/api/v1/settings/notifications", {
      as: users.hamlet,
      params: { enable_sounds: false },
    });
    expect(changed.status).toBe(200);
    expect(await register(users.hamlet, { fetch_event_types: ["update_global_notifications"] })).toEqual({
      ...HEAD,
      ...NOTIFICATIONS,
      enable_sounds: false,
    });
    expect(
      await register(users.hamlet, {
        fetch_event_types: ["update_global_notifications"],
        client_capabilities: { notification_settings_null: false, user_settings_object: true },
      }),
    ).toEqual(HEAD);
  });

  it("answers user_settings: display and notification settings in one object", async () => {
    const { users } = await start();
    expect(await register(users.hamlet, { fetch_event_types: ["user_settings"] })).toEqual({
      ...HEAD,
      user_settings: {
        twenty_four_hour_time: false,
        starred_message_counts: true,
        fluid_layout_width: false,
        high_contrast_mode: false,
        color_scheme: 1,
        translate_emoticons: false,
        display_emoji_reaction_users: true,
        default_language: "en",
        left_side_userlist: false,
        emojiset: "google",
        demote_inactive_streams: 1,
        user_list_style: 2,
        enter_sends: false,
        send_private_typing_notifications: true,
        send_stream_typing_notifications: true,
        send_read_receipts: true,
        presence_enabled: true,
        timezone: "",
        ...NOTIFICATIONS,
      },
    });
  });

  it("answers custom_profile_fields", async () => {
    const { api, users } = await start();
    const created = await api.post("/api/v1/realm/profile_fields", {
      as: users.iago,
      params: { name: "Phone number", hint: "Including the country code", field_type: 1 },
    });
    expect(created.status).toBe(200);
    expect(await register(users.hamlet, { fetch_event_types: ["custom_profile_fields"] })).toEqual({
      ...HEAD,
      custom_profile_fields: [
        {
          id: 1,
          name: "Phone number",
          type: 1,
          hint: "Including the country code",
          field_data: "",
          order: 1,
          required: false,
          editable_by_user: true,
        },
      ],
    });
  });

  it("answers message (max_message_id) and, with update_message_flags too, unread_msgs", async () => {
    const { api, users } = await start();
    expect(await register(users.hamlet, { fetch_event_types: ["message", "update_message_flags"] })).toEqual({
      ...HEAD,
      max_message_id: -1,
      unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
    });
    const sent = await api.post("/api/v1/messages", {
      as: users.othello,
      params: { type: "private", to: JSON.stringify([users.hamlet.id]), content: "hello" },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.id as number;
    expect(await register(users.hamlet, { fetch_event_types: ["message"] })).toEqual({
      ...HEAD,
      max_message_id: id,
    });
    expect(await register(users.hamlet, { fetch_event_types: ["message", "update_message_flags"] })).toEqual({
      ...HEAD,
      max_message_id: id,
      unread_msgs: {
        count: 1,
        pms: [{ other_user_id: 4, sender_id: 4, unread_message_ids: [id] }],
        streams: [],
        huddles: [],
        mentions: [],
        old_unreads_missing: false,
      },
    });
  });

  it("answers subscription, stream and muted_topics from the streams service", async () => {
    const { users } = await start();
    const general = {
      stream_id: 1,
      name: "general",
      description: "Everyone is added to this stream by default. Welcome!",
      rendered_description: "<p>Everyone is added to this stream by default. Welcome!</p>",
      date_created: 1767225600,
      invite_only: false,
      is_web_public: false,
      stream_post_policy: 1,
      message_retention_days: null,
      history_public_to_subscribers: true,
      first_message_id: null,
      is_announcement_only: false,
      stream_weekly_traffic: null,
      can_remove_subscribers_group: 2,
      is_archived: false,
      creator_id: null,
      is_recently_active: true,
      can_subscribe_group: { direct_members: [], direct_subgroups: [] },
      can_add_subscribers_group: { direct_members: [], direct_subgroups: [] },
      can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
      can_send_message_group: 6,
      topics_policy: "inherit",
    };
    expect(
      await register(
        users.iago,
        { fetch_event_types: ["subscription", "stream", "muted_topics"] },
        STREAMS_SCHEMA_GAP,
      ),
    ).toEqual({
      ...HEAD,
      subscriptions: [
        {
          ...general,
          color: "#76ce90",
          is_muted: false,
          in_home_view: true,
          pin_to_top: false,
          desktop_notifications: null,
          audible_notifications: null,
          push_notifications: null,
          email_notifications: null,
          wildcard_mentions_notify: null,
        },
      ],
      unsubscribed: [],
      never_subscribed: [],
      streams: [general],
      muted_topics: [],
    });
    expect(
      await register(users.hamlet, { fetch_event_types: ["subscription"], include_subscribers: true }),
    ).toEqual({
      ...HEAD,
      subscriptions: [],
      unsubscribed: [],
      never_subscribed: [{ ...general, subscribers: [1] }],
    });
    // Zulip leaves muted_topics out for clients that ask for user_topic.
    expect(await register(users.hamlet, { fetch_event_types: ["muted_topics", "user_topic"] })).toEqual({
      ...HEAD,
      user_topics: [],
    });
  });

  it("fetches the queue's event_types when fetch_event_types is absent", async () => {
    const { users } = await start();
    expect(await register(users.hamlet, { event_types: ["message"] })).toEqual({
      ...HEAD,
      max_message_id: -1,
    });
  });

  it("fetches every section when neither list is given", async () => {
    const { users } = await start();
    const body = await register(users.hamlet, {}, STREAMS_SCHEMA_GAP);
    expect(Object.keys(body).sort()).toEqual(
      [
        ...Object.keys(HEAD),
        "realm_name",
        "realm_description",
        "realm_uri",
        "realm_url",
        "realm_date_created",
        "realm_notifications_stream_id",
        "realm_bot_domain",
        "realm_email_auth_enabled",
        "realm_password_auth_enabled",
        "realm_invite_required",
        "realm_is_zephyr_mirror_realm",
        "realm_allow_message_editing",
        "realm_allow_edit_history",
        "realm_message_content_edit_limit_seconds",
        "realm_message_content_delete_limit_seconds",
        "realm_mandatory_topics",
        "realm_message_retention_days",
        "realm_waiting_period_threshold",
        "realm_default_language",
        "realm_presence_disabled",
        "realm_push_notifications_enabled",
        "realm_plan_type",
        "zulip_plan_is_not_limited",
        "realm_enable_spectator_access",
        "realm_icon_url",
        "realm_icon_source",
        "realm_wildcard_mention_policy",
        "realm_enable_read_receipts",
        "realm_default_external_accounts",
        "realm_moderation_request_channel_id",
        "realm_empty_topic_display_name",
        "realm_topics_policy",
        "realm_can_add_subscribers_group",
        "realm_can_create_private_channel_group",
        "realm_can_create_public_channel_group",
        "realm_can_invite_users_group",
        "realm_create_multiuse_invite_group",
        "server_supported_permission_settings",
        "max_file_upload_size_mib",
        "server_emoji_data_url",
        "server_thumbnail_formats",
        "max_stream_name_length",
        "max_stream_description_length",
        "max_topic_length",
        "max_message_length",
        "event_queue_longpoll_timeout_seconds",
        "server_presence_ping_interval_seconds",
        "server_presence_offline_threshold_seconds",
        "server_typing_started_expiry_period_milliseconds",
        "server_typing_stopped_wait_period_milliseconds",
        "server_typing_started_wait_period_milliseconds",
        "realm_users",
        "realm_non_active_users",
        "cross_realm_bots",
        "user_id",
        "email",
        "delivery_email",
        "full_name",
        "avatar_source",
        "avatar_url",
        "avatar_url_medium",
        "is_admin",
        "is_owner",
        "is_moderator",
        "is_guest",
        "is_billing_admin",
        "can_create_streams",
        "can_create_public_streams",
        "can_create_private_streams",
        "can_create_web_public_streams",
        "can_subscribe_other_users",
        "can_invite_others_to_realm",
        "realm_bots",
        "custom_profile_fields",
        ...Object.keys(NOTIFICATIONS),
        "user_settings",
        "max_message_id",
        "unread_msgs",
        "subscriptions",
        "unsubscribed",
        "never_subscribed",
        "muted_topics",
        "streams",
        // The legacy top-level display settings (update_display_settings).
        "color_scheme",
        "default_language",
        "demote_inactive_streams",
        "emojiset",
        "enter_sends",
        "fluid_layout_width",
        "high_contrast_mode",
        "left_side_userlist",
        "starred_message_counts",
        "timezone",
        "translate_emoticons",
        "twenty_four_hour_time",
        // register-user-state.ts: presence, user state and the features not built yet.
        "presences",
        "server_timestamp",
        "user_status",
        "starred_messages",
        "recent_private_conversations",
        "user_topics",
        "realm_default_streams",
        "realm_incoming_webhook_bots",
        "realm_user_groups",
        "realm_emoji",
        "alert_words",
        "muted_users",
        "drafts",
        "saved_snippets",
        "reminders",
        "realm_playgrounds",
        "realm_linkifiers",
        "realm_filters",
        "realm_domains",
        "realm_default_stream_groups",
        "scheduled_messages",
        "has_zoom_token",
        "giphy_api_key",
        "stop_words",
      ].sort(),
    );
  });

  it("lists the incoming-webhook integrations with Zulip 11's url_options and config_options", async () => {
    const { api, users } = await start();
    const res = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: { fetch_event_types: JSON.stringify(["realm_incoming_webhook_bots"]) },
    });
    expect(res.status).toBe(200);
    const bots = new Map(
      (res.body.realm_incoming_webhook_bots as { name: string; url_options: unknown[] }[]).map((b) => [
        b.name,
        b,
      ]),
    );
    expect(bots.get("helloworld")).toEqual({
      name: "helloworld",
      display_name: "Hello World",
      all_event_types: ["default"],
      config_options: [],
      url_options: [],
    });
    expect(bots.get("azuredevops")).toMatchObject({
      config_options: [],
      url_options: [
        {
          key: "branches",
          label: "Only notify for pushes to these branches (comma-separated)",
          validator: "check_string",
        },
      ],
    });
    expect(bots.get("stripe")).toMatchObject({
      config_options: [
        {
          key: "stripe_secret",
          label: "Stripe signing secret (requests without a valid signature are refused)",
          validator: "check_string",
        },
      ],
      url_options: [],
    });
    expect(bots.get("gitlab")?.url_options).toContainEqual({
      key: "use_merge_request_title",
      label: "Put the merge request's title in its topic",
      validator: "check_bool",
    });
  });

  it("rejects malformed arguments", async () => {
    const { api, users } = await start();
    const bad = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: { event_types: "message" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      result: "error",
      msg: 'Argument "event_types" is not valid JSON.',
      code: "BAD_REQUEST",
    });
    const lifespan = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: { queue_lifespan_secs: -5 },
    });
    expect(lifespan.body).toEqual({
      result: "error",
      msg: "queue_lifespan_secs is too small",
      code: "BAD_REQUEST",
    });
  });
});
