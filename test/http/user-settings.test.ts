import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("PATCH /api/v1/settings", () => {
  it("changes the full name and display settings, with events, and register reads them", async () => {
    const server = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, {
      event_types: ["realm_user", "user_settings", "update_display_settings"],
    });
    const res = await api.patch("/api/v1/settings", {
      as: users.hamlet,
      params: { full_name: "Prince Hamlet", twenty_four_hour_time: true, send_read_receipts: false },
    });
    expect(res.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "realm_user",
        op: "update",
        person: { user_id: users.hamlet.id, full_name: "Prince Hamlet" },
      },
      { id: 1, type: "user_settings", op: "update", property: "twenty_four_hour_time", value: true },
      {
        id: 2,
        type: "update_display_settings",
        user: "hamlet@zulip.com",
        setting_name: "twenty_four_hour_time",
        setting: true,
      },
      { id: 3, type: "user_settings", op: "update", property: "send_read_receipts", value: false },
    ]);
    const reg = await registerQueue(server, users.hamlet, {
      fetch_event_types: ["user_settings", "update_display_settings"],
    });
    expect([
      reg.register.twenty_four_hour_time,
      reg.register.user_settings.twenty_four_hour_time,
      reg.register.user_settings.send_read_receipts,
    ]).toEqual([true, true, false]);
  });

  it("changes the password with the old one; notification settings go through as well", async () => {
    const server = await start();
    const { api, users } = server;
    const res = await api.patch("/api/v1/settings", {
      as: users.hamlet,
      params: {
        old_password: "hamlet@zulip.com-password",
        new_password: "to be or not",
        enable_sounds: false,
      },
    });
    expect(res.body).toEqual(ok);
    const key = await api.post("/api/v1/fetch_api_key", {
      params: { username: "hamlet@zulip.com", password: "to be or not" },
    });
    expect(key.status).toBe(200);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["user_settings"] });
    expect(reg.register.user_settings.enable_sounds).toBe(false);
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    const patch = (params: Record<string, string | number | boolean>) =>
      api.patch("/api/v1/settings", { as: users.hamlet, params });
    expect((await patch({ old_password: "nope", new_password: "whatever1" })).body).toEqual(
      error("Wrong password!"),
    );
    expect((await patch({ new_password: "whatever1" })).body).toEqual(
      error("Missing 'old_password' argument"),
    );
    expect((await patch({ full_name: "" })).body).toEqual(error("Name too short!"));
    expect((await patch({ color_scheme: 7 })).body).toEqual(error("Invalid color_scheme"));
    expect((await patch({ emojiset: "apple" })).body).toEqual(error("Invalid emojiset"));
  });
});
