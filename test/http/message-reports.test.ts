import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { T0, createStream, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// The Notification Bot's text is stored as Zulip stores it: trailing whitespace stripped.
// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
let server: MessagingServer;
let denmark: number;
let moderation: number;
beforeEach(async () => {
  server = await startMessagingServer();
  const { users } = server;
  denmark = await createStream(server, "Denmark", [users.hamlet, users.othello]);
  moderation = await createStream(server, "reports", [users.iago], { inviteOnly: true });
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const mention = (u: TestUser) => `@_**${u.fullName}|${u.id}**`;
const WHEN = `<time:${new Date(T0 * 1000).toISOString().replace(".000Z", "+00:00")}>`;

const report = (as: TestUser, id: number | string, params: Record<string, string>) =>
  server.api.post(`/api/v1/messages/${id}/report`, { as, params });

/** The moderation channel's messages as [sender, topic, raw content], read by its subscriber iago. */
async function reports(): Promise<[string, string, string][]> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.iago,
    params: {
      anchor: "oldest",
      num_before: 0,
      num_after: 100,
      narrow: JSON.stringify([["stream", "reports"]]),
      apply_markdown: "false",
    },
  });
  return (res.body.messages as Record<string, unknown>[]).map((m) => [
    m["sender_full_name"] as string,
    m["subject"] as string,
    m["content"] as string,
  ]);
}

describe("message reports (Zulip feature level 382)", () => {
  it("an admin sets the moderation-request channel; reports reach it as Zulip words them", async () => {
    const { api, users } = server;
    const { hamlet, othello, cordelia, iago } = users;
    const q = await registerQueue(server, cordelia, { event_types: ["realm"] });
    expect((await registerQueue(server, cordelia, {})).register.realm_moderation_request_channel_id).toBe(-1);
    const set = await api.patch("/api/v1/realm", {
      as: iago,
      params: { moderation_request_channel_id: moderation },
    });
    expect(set.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm", op: "update", property: "moderation_request_channel_id", value: moderation },
    ]);
    const reg = await registerQueue(server, cordelia, { fetch_event_types: ["realm"] });
    expect(reg.register.realm_moderation_request_channel_id).toBe(moderation);

    const channelMsg = await send(server, hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "castle",
      content: "```\ncode\n```",
    });
    const dm = await send(server, othello, { type: "private", to: [hamlet.id], content: "psst" });
    const group = await send(server, othello, {
      type: "private",
      to: [hamlet.id, cordelia.id],
      content: "all of you",
    });
    expect((await report(othello, channelMsg, { report_type: "spam" })).body).toEqual(ok);
    expect((await report(hamlet, dm, { report_type: "other", description: "Not nice." })).body).toEqual(ok);
    expect((await report(othello, dm, { report_type: "harassment" })).body).toEqual(ok);
    expect((await report(cordelia, group, { report_type: "norms", description: "x" })).body).toEqual(ok);

    const url = server.running.services.config.externalUrl;
    const [lo, hi] = [hamlet.id, othello.id].sort((a, b) => a - b);
    const dmLink = `[Original message](${url}/#narrow/dm/${lo},${hi}/near/${dm})`;
    const groupIds = [hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b).join(",");
    expect(await reports()).toEqual([
      [
        "Notification Bot",
        `${hamlet.fullName} moderation`,
        `${mention(othello)} reported a message sent by ${mention(hamlet)} at ${WHEN}.\n` +
          "```quote\n**Spam**. \n```\n\n" +
          `\`\`\`\` spoiler Original message at #**Denmark>castle@${channelMsg}**\n` +
          "```\ncode\n```\n````",
      ],
      [
        "Notification Bot",
        `${othello.fullName} moderation`,
        `${mention(hamlet)} reported a message sent by ${mention(othello)} at ${WHEN}.\n` +
          "```quote\n**Other reason**. Not nice.\n```\n\n" +
          `\`\`\` spoiler ${dmLink}\npsst\n\`\`\``,
      ],
      [
        "Notification Bot",
        `${othello.fullName} moderation`,
        `${mention(othello)} reported a message sent by ${mention(othello)} to ${mention(hamlet)} at ${WHEN}.\n` +
          "```quote\n**Harassment**. \n```\n\n" +
          `\`\`\` spoiler ${dmLink}\npsst\n\`\`\``,
      ],
      [
        "Notification Bot",
        `${othello.fullName} moderation`,
        `${mention(cordelia)} reported a message sent by ${mention(othello)} to ` +
          `${[hamlet, cordelia]
            .sort((a, b) => a.id - b.id)
            .map(mention)
            .join(" and ")} at ${WHEN}.\n` +
          "```quote\n**Violates community norms**. x\n```\n\n" +
          `\`\`\` spoiler [Original message](${url}/#narrow/dm/${groupIds}/near/${group})\nall of you\n\`\`\``,
      ],
    ]);

    // Archiving the channel turns reporting off, as in Zulip.
    expect((await api.delete(`/api/v1/streams/${moderation}`, { as: iago })).body).toEqual(ok);
    expect((await registerQueue(server, cordelia, {})).register.realm_moderation_request_channel_id).toBe(-1);
    const off = await report(othello, channelMsg, { report_type: "spam" });
    expect([off.status, off.body]).toEqual([
      400,
      error("Message reporting is not enabled in this organization."),
    ]);
    expect(
      (await api.patch("/api/v1/realm", { as: iago, params: { moderation_request_channel_id: -1 } })).body,
    ).toEqual(ok);
  });

  it("-1 turns reporting off again", async () => {
    const { api, users } = server;
    const { iago, cordelia } = users;
    expect(
      (await api.patch("/api/v1/realm", { as: iago, params: { moderation_request_channel_id: moderation } }))
        .body,
    ).toEqual(ok);
    expect(
      (await api.patch("/api/v1/realm", { as: iago, params: { moderation_request_channel_id: -1 } })).body,
    ).toEqual(ok);
    expect((await registerQueue(server, cordelia, {})).register.realm_moderation_request_channel_id).toBe(-1);
  });

  it("answers Zulip's errors", async () => {
    const { api, users } = server;
    const { hamlet, othello, iago, cordelia } = users;
    const msg = await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "hi" });
    const check = (res: { status: number; body: unknown }, msg: string) =>
      expect([res.status, res.body]).toEqual([400, error(msg)]);

    check(
      await report(othello, msg, { report_type: "spam" }),
      "Message reporting is not enabled in this organization.",
    );
    check(await report(othello, msg, { report_type: "other" }), "An explanation is required.");
    check(await report(othello, msg, { report_type: "rude" }), "Invalid report_type");
    check(
      await report(othello, msg, { report_type: "spam", description: "x".repeat(1001) }),
      "description is too long (limit: 1000 characters)",
    );
    const missing = await report(othello, msg, {});
    expect([missing.status, missing.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'report_type' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "report_type",
      },
    ]);

    const setChannel = (as: TestUser, id: number) =>
      api.patch("/api/v1/realm", { as, params: { moderation_request_channel_id: id } });
    check(await setChannel(hamlet, moderation), "Must be an organization administrator");
    check(await setChannel(iago, denmark), "Moderation request channel must be private.");
    check(await setChannel(iago, 999), "Invalid stream ID");
    expect((await setChannel(iago, moderation)).body).toEqual(ok);

    // A message the reporter cannot read is "Invalid message(s)", as any other access.
    const dm = await send(server, othello, { type: "private", to: [hamlet.id], content: "psst" });
    check(await report(cordelia, dm, { report_type: "spam" }), "Invalid message(s)");
    check(await report(cordelia, 9999, { report_type: "spam" }), "Invalid message(s)");
    expect(await reports()).toEqual([]);
  });
});
