import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
import { createStream, recordEvents, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;
let denmark: number;
let verona: number;
let secret: number;

/**
 * Streams 2 Denmark (hamlet, othello), 3 Verona (hamlet, cordelia), 4 secret (private: iago,
 * hamlet). Messages 1–3 in Denmark/castle, 4 in Denmark/other.
 */
beforeEach(async () => {
  server = await startMessagingServer();
  const { iago, hamlet, othello, cordelia } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello]);
  verona = await createStream(server, "Verona", [hamlet, cordelia]);
  secret = await createStream(server, "secret", [iago, hamlet], { inviteOnly: true });
  for (const content of ["one", "two", "three"]) {
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content });
  }
  await send(server, hamlet, { type: "stream", to: "Denmark", topic: "other", content: "four" });
});
afterEach(async () => {
  await server.close();
});

async function where(as: TestUser, narrow: unknown[]): Promise<[number, string, string][]> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "oldest", num_before: 0, num_after: 100, narrow, apply_markdown: false },
  });
  return res.body.messages.map((m: Record<string, unknown>) => [
    m["id"],
    m["display_recipient"],
    m["subject"],
  ]);
}

describe("PATCH /api/v1/messages/{id} with stream_id", () => {
  it("moves a whole topic to another stream, with the Notification Bot's breadcrumbs", async () => {
    const { iago, cordelia, othello } = server.users;
    const events = recordEvents(server);
    const res = await server.api.patch("/api/v1/messages/2", {
      as: iago,
      params: {
        stream_id: verona,
        topic: "balcony",
        propagate_mode: "change_all",
        send_notification_to_old_thread: "true",
      },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await where(cordelia, [["stream", "Verona"]])).toEqual([
      [1, "Verona", "balcony"],
      [2, "Verona", "balcony"],
      [3, "Verona", "balcony"],
      [5, "Verona", "balcony"],
    ]);
    // Cordelia, subscribed to Verona, now received the moved messages (read), not only sees them.
    const flags = await server.api.get("/api/v1/messages", {
      as: cordelia,
      params: { anchor: "oldest", num_before: 0, num_after: 3, narrow: [["stream", "Verona"]] },
    });
    expect(flags.body.messages.map((m: Record<string, unknown>) => [m["id"], m["flags"]])).toEqual([
      [1, ["read"]],
      [2, ["read"]],
      [3, ["read"]],
    ]);
    const notices = await server.api.get("/api/v1/messages", {
      as: othello,
      params: {
        anchor: "oldest",
        num_before: 0,
        num_after: 100,
        narrow: [["stream", "Denmark"]],
        apply_markdown: false,
      },
    });
    expect(
      notices.body.messages.map((m: Record<string, unknown>) => [m["id"], m["subject"], m["content"]]),
    ).toEqual([
      [4, "other", "four"],
      [6, "castle", `This topic was moved to #**Verona>balcony** by @_**Iago|${iago.id}**.`],
    ]);
    const moved = (await server.api.get("/api/v1/messages/5", { as: cordelia })).body.raw_content;
    expect(moved).toBe(`This topic was moved here from #**Denmark>castle** by @_**Iago|${iago.id}**.`);
    const update = events.find((e) => e.event.type === "update_message")!.event;
    expect(update).toEqual({
      type: "update_message",
      user_id: iago.id,
      edit_timestamp: 1767225600,
      message_id: 2,
      message_ids: [1, 2, 3],
      rendering_only: false,
      stream_name: "Denmark",
      stream_id: denmark,
      new_stream_id: verona,
      propagate_mode: "change_all",
      orig_subject: "castle",
      subject: "balcony",
      topic_links: [],
    });
  });

  it("moves one message into a private stream: those who cannot read it there lose it", async () => {
    const { iago, hamlet, othello } = server.users;
    const events = recordEvents(server);
    const res = await server.api.patch("/api/v1/messages/3", {
      as: iago,
      params: { stream_id: secret, propagate_mode: "change_one", send_notification_to_new_thread: "false" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await where(othello, [["stream", "Denmark"]])).toEqual([
      [1, "Denmark", "castle"],
      [2, "Denmark", "castle"],
      [4, "Denmark", "other"],
    ]);
    expect(await where(hamlet, [["stream", "secret"]])).toEqual([[3, "secret", "castle"]]);
    expect(events.find((e) => e.event.type === "delete_message")).toEqual({
      event: {
        type: "delete_message",
        message_ids: [3],
        message_type: "stream",
        stream_id: denmark,
        topic: "castle",
      },
      recipients: [othello.id],
    });
    expect(events.filter((e) => e.event.type === "message")).toEqual([]);
  });

  it("refuses moves by non-administrators, to hidden streams, of private messages, with content", async () => {
    const { iago, hamlet, othello } = server.users;
    const pm = await send(server, hamlet, {
      type: "private",
      to: JSON.stringify([othello.email]),
      content: "hi",
    });
    const cases: [TestUser, number, Record<string, string | number>, string][] = [
      [hamlet, 1, { stream_id: verona }, "You don't have permission to move this message"],
      [iago, 1, { stream_id: 99 }, "Invalid stream ID"],
      [iago, pm, { stream_id: verona }, "Invalid message(s)"],
      [iago, 1, { stream_id: verona, content: "new" }, "Cannot change message content while changing stream"],
    ];
    for (const [as, id, params, msg] of cases) {
      const res = await server.api.patch(`/api/v1/messages/${id}`, { as, params });
      expect([res.status, res.body]).toEqual([400, { result: "error", msg, code: "BAD_REQUEST" }]);
    }
    const ownPm = await server.api.patch(`/api/v1/messages/${pm}`, {
      as: hamlet,
      params: { stream_id: verona },
    });
    expect(ownPm.body).toEqual({
      result: "error",
      msg: "Private messages cannot be moved to streams.",
      code: "BAD_REQUEST",
    });
  });
});
