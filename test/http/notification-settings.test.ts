import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import type { ZulipEvent } from "../../src/domain/events/event-sink.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const SETTINGS = "/api/v1/settings/notifications";

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

function recordEvents(): { event: ZulipEvent; to: number[] }[] {
  const recorded: { event: ZulipEvent; to: number[] }[] = [];
  jest.spyOn(s.running.services.events, "send").mockImplementation((event, recipients) => {
    recorded.push({ event, to: [...recipients].map((r) => (typeof r === "number" ? r : r.id)) });
  });
  return recorded;
}

const DEFAULTS = {
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

/** Every setting flipped from its default. */
const FLIPPED = {
  enable_stream_desktop_notifications: true,
  enable_stream_email_notifications: true,
  enable_stream_push_notifications: true,
  enable_stream_audible_notifications: true,
  notification_sound: "ding",
  enable_desktop_notifications: false,
  enable_sounds: false,
  enable_offline_email_notifications: false,
  enable_offline_push_notifications: false,
  enable_online_push_notifications: false,
  enable_digest_emails: false,
  enable_login_emails: false,
  message_content_in_email_notifications: false,
  pm_content_in_desktop_notifications: false,
  wildcard_mentions_notify: false,
  desktop_icon_count_display: 3,
  realm_name_in_notifications: true,
};

describe("PATCH /api/v1/settings/notifications", () => {
  it("starts every user with Zulip's defaults", async () => {
    expect(await s.running.services.streams.notificationSettings(s.users.hamlet.id)).toEqual(DEFAULTS);
  });

  it("answers only the settings whose value changed", async () => {
    const res = await s.api.patch(SETTINGS, {
      as: s.users.hamlet,
      params: { enable_sounds: false, enable_digest_emails: true, notification_sound: "zulip" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", enable_sounds: false });
    expect(await s.running.services.streams.notificationSettings(s.users.hamlet.id)).toEqual({
      ...DEFAULTS,
      enable_sounds: false,
    });
  });

  it("changes all seventeen settings at once", async () => {
    const res = await s.api.patch(SETTINGS, { as: s.users.hamlet, params: FLIPPED });
    expect(res.body).toEqual({ result: "success", msg: "", ...FLIPPED });
    expect(await s.running.services.streams.notificationSettings(s.users.hamlet.id)).toEqual(FLIPPED);
    const again = await s.api.patch(SETTINGS, { as: s.users.hamlet, params: FLIPPED });
    expect(again.body).toEqual({ result: "success", msg: "" });
  });

  it("answers plain success when nothing is sent", async () => {
    const res = await s.api.patch(SETTINGS, { as: s.users.hamlet, params: {} });
    expect(res.body).toEqual({ result: "success", msg: "" });
  });

  it("keeps each user's settings apart", async () => {
    await s.api.patch(SETTINGS, { as: s.users.hamlet, params: { enable_login_emails: false } });
    expect(await s.running.services.streams.notificationSettings(s.users.othello.id)).toEqual(DEFAULTS);
  });

  it.each([2, 3, 1])("accepts desktop_icon_count_display %i", async (value) => {
    const res = await s.api.patch(SETTINGS, {
      as: s.users.hamlet,
      params: { desktop_icon_count_display: value },
    });
    expect(res.body).toEqual(
      value === 1
        ? { result: "success", msg: "" }
        : { result: "success", msg: "", desktop_icon_count_display: value },
    );
  });

  it("accepts the notification sound none", async () => {
    const res = await s.api.patch(SETTINGS, { as: s.users.hamlet, params: { notification_sound: "none" } });
    expect(res.body).toEqual({ result: "success", msg: "", notification_sound: "none" });
  });

  const errors: [string, Record<string, unknown>, string][] = [
    ["a count display of 4", { desktop_icon_count_display: 4 }, "Invalid desktop_icon_count_display"],
    ["a count display of 0", { desktop_icon_count_display: 0 }, "Invalid desktop_icon_count_display"],
    [
      "a count display that is not an integer",
      { desktop_icon_count_display: "all" },
      'Argument "desktop_icon_count_display" is not valid JSON.',
    ],
    [
      "a count display of 1.5",
      { desktop_icon_count_display: 1.5 },
      "desktop_icon_count_display is not an integer",
    ],
    ["a setting that is not a boolean", { enable_sounds: 1 }, "enable_sounds is not a boolean"],
    [
      "an unknown notification sound",
      { notification_sound: "klaxon" },
      "Invalid notification sound 'klaxon'",
    ],
  ];
  it.each(errors)("rejects %s and changes nothing", async (_label, params, msg) => {
    const res = await s.api.patch(SETTINGS, {
      as: s.users.hamlet,
      params: { enable_sounds: false, ...params },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    expect(await s.running.services.streams.notificationSettings(s.users.hamlet.id)).toEqual(DEFAULTS);
  });

  it("rejects bots", async () => {
    const iago = (await s.running.services.users.byId(s.users.iago.id))!;
    const { bot } = await s.running.services.users.createBot(iago, {
      fullName: "Generic Bot",
      shortName: "generic",
      botType: 1,
    });
    const res = await s.api.patch(SETTINGS, {
      as: { email: bot.email, apiKey: bot.apiKey },
      params: { enable_sounds: false },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "This endpoint does not accept bot requests.",
      code: "BAD_REQUEST",
    });
  });

  it("publishes one update_global_notifications event per changed setting, to the user", async () => {
    const events = recordEvents();
    await s.api.patch(SETTINGS, {
      as: s.users.hamlet,
      params: { enable_sounds: false, enable_digest_emails: true, desktop_icon_count_display: 2 },
    });
    expect(events).toEqual([
      {
        event: {
          type: "update_global_notifications",
          user: "hamlet@zulip.com",
          notification_name: "enable_sounds",
          setting: false,
        },
        to: [3],
      },
      {
        event: {
          type: "update_global_notifications",
          user: "hamlet@zulip.com",
          notification_name: "desktop_icon_count_display",
          setting: 2,
        },
        to: [3],
      },
    ]);
  });
});

describe("update_global_notifications events through an event queue", () => {
  it("delivers one event per changed setting to the user's queue only", async () => {
    const queue = async (as: TestServer["users"]["hamlet"]): Promise<string> =>
      (
        await s.api.post("/api/v1/register", {
          as,
          params: { event_types: ["update_global_notifications"], fetch_event_types: [] },
        })
      ).body.queue_id;
    const hamletQueue = await queue(s.users.hamlet);
    const othelloQueue = await queue(s.users.othello);
    await s.api.patch(SETTINGS, {
      as: s.users.hamlet,
      params: { enable_sounds: false, notification_sound: "ding" },
    });
    // Fan-out runs after the response (several Redis round trips with TEST_STACK=postgres-redis).
    await s.running.services.eventQueues.idle();
    const mine = await s.api.get("/api/v1/events", {
      as: s.users.hamlet,
      params: { queue_id: hamletQueue, last_event_id: -1, dont_block: true },
    });
    expect(mine.body).toEqual({
      result: "success",
      msg: "",
      events: [
        {
          type: "update_global_notifications",
          user: "hamlet@zulip.com",
          notification_name: "notification_sound",
          setting: "ding",
          id: 0,
        },
        {
          type: "update_global_notifications",
          user: "hamlet@zulip.com",
          notification_name: "enable_sounds",
          setting: false,
          id: 1,
        },
      ],
    });
    const theirs = await s.api.get("/api/v1/events", {
      as: s.users.othello,
      params: { queue_id: othelloQueue, last_event_id: -1, dont_block: true },
    });
    expect(theirs.body).toEqual({ result: "success", msg: "", events: [] });
  });
});
