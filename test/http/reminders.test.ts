import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { T0, createStream, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
// The clock starts at T0 and moves only when a test advances it; tick() runs the delivery worker.
let server: MessagingServer;
let denmark: number;
beforeEach(async () => {
  server = await startMessagingServer();
  denmark = await createStream(server, "Denmark", [server.users.hamlet, server.users.othello]);
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const HOUR = 3600;
const mention = (u: TestUser) => `@_**${u.fullName}|${u.id}**`;

const remind = (as: TestUser, params: Record<string, string | number>) =>
  server.api.post("/api/v1/reminders", { as, params });

describe("message reminders (Zulip feature levels 381, 399, 415)", () => {
  it("schedules, lists and cancels reminders; the Notification Bot delivers them as Zulip words them", async () => {
    const { api, users, clock } = server;
    const { hamlet, othello } = users;
    const url = server.running.services.config.externalUrl;
    const q = await registerQueue(server, hamlet, { event_types: ["reminders"] });
    const channelMsg = await send(server, othello, {
      type: "stream",
      to: "Denmark",
      topic: "the castle",
      content: "To be",
    });
    const dm = await send(server, othello, { type: "private", to: [hamlet.id], content: "psst" });

    const first = await remind(hamlet, {
      message_id: channelMsg,
      scheduled_delivery_timestamp: T0 + HOUR,
      note: "\nRead this\n ",
    });
    expect(first.body).toEqual({ ...ok, reminder_id: 1 });
    const second = await remind(hamlet, { message_id: dm, scheduled_delivery_timestamp: T0 + 2 * HOUR });
    expect(second.body).toEqual({ ...ok, reminder_id: 2 });

    const channelContent =
      "You requested a reminder for the following message. Note:\n > Read this\n\n" +
      `${mention(othello)} [said](${url}/#narrow/channel/${denmark}-Denmark/topic/the-castle/near/${channelMsg}) ` +
      `in #**Denmark>the castle@${channelMsg}**:\n\`\`\`quote\nTo be\n\`\`\``;
    const dmContent =
      "You requested a reminder for the following direct message.\n\n" +
      `${mention(othello)} [said](${url}/#narrow/dm/${hamlet.id},${othello.id}/near/${dm}) to ${mention(hamlet)}:\n` +
      "```quote\npsst\n```";
    const list = (await api.get("/api/v1/reminders", { as: hamlet })).body as {
      reminders: Record<string, unknown>[];
    };
    expect(list.reminders.map((r) => ({ ...r, rendered_content: typeof r["rendered_content"] }))).toEqual([
      {
        reminder_id: 1,
        type: "private",
        to: [hamlet.id],
        content: channelContent,
        rendered_content: "string",
        scheduled_delivery_timestamp: T0 + HOUR,
        failed: false,
        reminder_target_message_id: channelMsg,
      },
      {
        reminder_id: 2,
        type: "private",
        to: [hamlet.id],
        content: dmContent,
        rendered_content: "string",
        scheduled_delivery_timestamp: T0 + 2 * HOUR,
        failed: false,
        reminder_target_message_id: dm,
      },
    ]);
    const [r1, r2] = (await api.get("/api/v1/reminders", { as: hamlet })).body.reminders as unknown[];
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "reminders", op: "add", reminders: [r1] },
      { id: 1, type: "reminders", op: "add", reminders: [r2] },
    ]);
    // Reminders are not scheduled messages, and others see none of them.
    expect((await api.get("/api/v1/scheduled_messages", { as: hamlet })).body).toEqual({
      ...ok,
      scheduled_messages: [],
    });
    expect((await api.get("/api/v1/reminders", { as: othello })).body).toEqual({ ...ok, reminders: [] });
    const reg = await registerQueue(server, hamlet, { fetch_event_types: ["reminders"] });
    expect(reg.register.reminders).toEqual([r1, r2]);

    expect((await api.delete("/api/v1/reminders/2", { as: hamlet })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([{ id: 2, type: "reminders", op: "remove", reminder_id: 2 }]);

    const worker = server.running.services.scheduledMessages;
    clock.advance(HOUR * 1000);
    // The worker's own timer may run first: after tick() resolves, any earlier run has finished too.
    await worker.tick();
    expect(await drainEvents(q)).toEqual([{ id: 3, type: "reminders", op: "remove", reminder_id: 1 }]);
    const delivered = await api.get("/api/v1/messages", {
      as: hamlet,
      params: {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: JSON.stringify([["is", "dm"]]),
        apply_markdown: "false",
      },
    });
    const m = (delivered.body.messages as Record<string, unknown>[])[0]!;
    expect([m["sender_full_name"], m["type"], m["content"]]).toEqual([
      "Notification Bot",
      "private",
      channelContent,
    ]);
    expect((await api.get("/api/v1/reminders", { as: hamlet })).body).toEqual({ ...ok, reminders: [] });
  });

  it("answers Zulip's errors", async () => {
    const { api, users } = server;
    const { hamlet, othello, cordelia } = users;
    const dm = await send(server, othello, { type: "private", to: [hamlet.id], content: "psst" });
    const check = (res: { status: number; body: unknown }, msg: string) =>
      expect([res.status, res.body]).toEqual([400, error(msg)]);
    check(
      await remind(hamlet, { message_id: dm, scheduled_delivery_timestamp: T0 }),
      "Scheduled delivery time must be in the future.",
    );
    check(
      await remind(cordelia, { message_id: dm, scheduled_delivery_timestamp: T0 + HOUR }),
      "Invalid message(s)",
    );
    check(
      await remind(hamlet, {
        message_id: dm,
        scheduled_delivery_timestamp: T0 + HOUR,
        note: "x".repeat(1001),
      }),
      "Maximum reminder note length: 1000 characters",
    );
    check(
      await remind(hamlet, { message_id: "abc", scheduled_delivery_timestamp: T0 + HOUR }),
      'Argument "message_id" is not valid JSON.',
    );
    check(
      await remind(hamlet, { message_id: "1.5", scheduled_delivery_timestamp: T0 + HOUR }),
      "message_id is not an integer",
    );
    const missing = await remind(hamlet, { message_id: dm });
    expect([missing.status, missing.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'scheduled_delivery_timestamp' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "scheduled_delivery_timestamp",
      },
    ]);
    // Another user's reminder, or a scheduled message's id, is "Reminder does not exist" (404).
    expect((await remind(hamlet, { message_id: dm, scheduled_delivery_timestamp: T0 + HOUR })).body).toEqual({
      ...ok,
      reminder_id: 1,
    });
    const scheduled = await api.post("/api/v1/scheduled_messages", {
      as: othello,
      params: {
        type: "direct",
        to: JSON.stringify([hamlet.id]),
        content: "later",
        scheduled_delivery_timestamp: T0 + HOUR,
      },
    });
    expect(scheduled.body).toEqual({ ...ok, scheduled_message_id: 2 });
    for (const [as, id] of [
      [othello, 1],
      [othello, 2],
      [hamlet, 99],
    ] as const) {
      const res = await api.delete(`/api/v1/reminders/${id}`, { as });
      expect([res.status, res.body]).toEqual([404, error("Reminder does not exist")]);
    }
    const notScheduled = await api.delete("/api/v1/scheduled_messages/1", { as: hamlet });
    expect([notScheduled.status, notScheduled.body]).toEqual([
      404,
      error("Scheduled message does not exist"),
    ]);
  });
});
