import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 2026-01-01T00:00:00Z, the ManualClock's start, in seconds. */
const T0 = 1767225600;

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

describe("POST /api/v1/register (state of every event type)", () => {
  it("answers zulip-terminal's fetch_event_types with every key it reads, matching Zulip's schema", async () => {
    const { api, users } = await start();
    // zulip-terminal's list (issue 18), minus `subscription`/`realm`/`realm_user`, checked elsewhere.
    const res = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: {
        fetch_event_types: [
          "presence",
          "message",
          "starred_messages",
          "update_message_flags",
          "muted_topics",
          "realm_user_groups",
          "realm_emoji",
          "custom_profile_fields",
          "zulip_version",
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      queue_id: expect.any(String),
      last_event_id: -1,
      zulip_version: "11.0",
      zulip_feature_level: 421,
      zulip_merge_base: "11.0",
      presences: {},
      server_timestamp: T0,
      max_message_id: -1,
      unread_msgs: {
        count: 0,
        pms: [],
        streams: [],
        huddles: [],
        mentions: [],
        old_unreads_missing: false,
      },
      starred_messages: [],
      muted_topics: [],
      // The role-based system groups (user-groups.test.ts lists them whole).
      realm_user_groups: expect.arrayContaining([
        {
          id: 6,
          name: "role:everyone",
          description: "Everyone in this organization, including guests",
          members: [6],
          direct_subgroup_ids: [5],
          is_system_group: true,
          can_mention_group: { direct_members: [], direct_subgroups: [] },
        },
      ]),
      realm_emoji: {},
      custom_profile_fields: [],
    });
  });

  it("answers the features not built yet with empty state, under Zulip's keys", async () => {
    const { api, users } = await start();
    const res = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: {
        fetch_event_types: [
          "alert_words",
          "muted_users",
          "drafts",
          "realm_playgrounds",
          "realm_linkifiers",
          "realm_filters",
          "realm_domains",
          "default_stream_groups",
          "scheduled_messages",
          "video_calls",
          "giphy",
          "stop_words",
          "user_status",
          "user_topic",
          "recent_private_conversations",
          "default_streams",
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      queue_id: expect.any(String),
      last_event_id: -1,
      zulip_version: "11.0",
      zulip_feature_level: 421,
      zulip_merge_base: "11.0",
      alert_words: [],
      muted_users: [],
      drafts: [],
      realm_playgrounds: [],
      realm_linkifiers: [],
      realm_filters: [],
      realm_domains: [],
      realm_default_stream_groups: [],
      scheduled_messages: [],
      has_zoom_token: false,
      giphy_api_key: "",
      stop_words: [],
      user_status: {},
      user_topics: [],
      recent_private_conversations: [],
      // Channel ids since Zulip 10.0 (feature level 330).
      realm_default_streams: [1],
    });
  });

  it("answers zulip-terminal's whole start-up request with every key it reads", async () => {
    const { api, users } = await start();
    const res = await api.post("/api/v1/register", {
      as: users.hamlet,
      params: {
        client_gravatar: true,
        fetch_event_types: [
          "realm",
          "presence",
          "subscription",
          "message",
          "starred_messages",
          "update_message_flags",
          "muted_topics",
          "realm_user",
          "realm_user_groups",
          "update_global_notifications",
          "update_display_settings",
          "user_settings",
          "realm_emoji",
          "custom_profile_fields",
          "zulip_version",
        ],
      },
    });
    expect(res.status).toBe(200);
    const read = [
      "zulip_version",
      "zulip_feature_level",
      "realm_users",
      "cross_realm_bots",
      "subscriptions",
      "never_subscribed",
      "unsubscribed",
      "unread_msgs",
      "muted_topics",
      "realm_user_groups",
      "presences",
      "realm_emoji",
      "starred_messages",
      "user_settings",
      "twenty_four_hour_time",
      "pm_content_in_desktop_notifications",
      "realm_message_retention_days",
      "max_message_length",
      "max_stream_name_length",
      "max_topic_length",
      "realm_allow_message_editing",
      "realm_message_content_edit_limit_seconds",
      "custom_profile_fields",
    ];
    expect(read.filter((key) => !(key in res.body))).toEqual([]);
    expect(res.body.user_settings.send_private_typing_notifications).toBe(true);
    expect(res.body.twenty_four_hour_time).toBe(false);
    expect(res.body.pm_content_in_desktop_notifications).toBe(true);
  });
});
