import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
import { createStream, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;

/**
 * 1 Denmark/deploy, 2 Denmark/deploy (a link), 3 Denmark/lunch, 4 private hamlet → othello,
 * 5 "secret" (private stream of othello only), 6 Denmark/status by othello mentioning hamlet.
 */
beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  await createStream(server, "Denmark", [hamlet, othello]);
  await createStream(server, "secret", [othello], { inviteOnly: true });
  const stream = (to: string, topic: string, content: string, as: TestUser = hamlet) =>
    send(server, as, { type: "stream", to, topic, content });
  await stream("Denmark", "deploy", "The deploy failed on staging");
  await stream("Denmark", "deploy", "Deploys are green again: https://example.com/ci");
  await stream("Denmark", "lunch", "pizza today?");
  await send(server, hamlet, {
    type: "private",
    to: JSON.stringify([othello.email]),
    content: "deploy the thing",
  });
  await stream("secret", "plans", "deploy secret plans", othello);
  await stream("Denmark", "status", "@**King Hamlet** all good", othello);
});
afterEach(async () => {
  await server.close();
});

async function ids(as: TestUser, narrow: unknown[]): Promise<number[]> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "oldest", num_before: 0, num_after: 100, narrow },
  });
  expect(res.status).toBe(200);
  return res.body.messages.map((m: { id: number }) => m.id);
}

describe("GET /api/v1/messages with search and narrows", () => {
  it("finds words with stemming in topic and content, only among messages the user may read", async () => {
    const { hamlet, othello, cordelia } = server.users;
    expect(await ids(hamlet, [["search", "deploy"]])).toEqual([1, 2, 4]);
    expect(await ids(othello, [["search", "deploy"]])).toEqual([1, 2, 4, 5]);
    expect(await ids(cordelia, [["search", "deploy"]])).toEqual([]);
    // Public history: a stream narrow reads messages the user never received.
    expect(
      await ids(cordelia, [
        ["stream", "Denmark"],
        ["search", "deploy"],
      ]),
    ).toEqual([1, 2]);
    expect(
      await ids(cordelia, [
        ["stream", "secret"],
        ["search", "deploy"],
      ]),
    ).toEqual([]);
    expect(await ids(hamlet, [["search", "LUNCH"]])).toEqual([3]);
    expect(await ids(hamlet, [["search", '"failed on staging"']])).toEqual([1]);
    expect(await ids(hamlet, [["search", '"staging failed"']])).toEqual([]);
    expect(await ids(hamlet, [["search", "deploy green"]])).toEqual([2]);
    expect(await ids(hamlet, [{ operator: "search", operand: "deploy", negated: true }])).toEqual([3, 6]);
  });

  it("highlights the matches in match_content and match_subject", async () => {
    const res = await server.api.get("/api/v1/messages", {
      as: server.users.hamlet,
      params: { anchor: 1, num_before: 0, num_after: 0, narrow: [["search", "deploy"]] },
    });
    expect(res.status).toBe(200);
    const [m] = res.body.messages;
    expect([m.id, m.match_content, m.match_subject]).toEqual([
      1,
      '<p>The <span class="highlight">deploy</span> failed on staging</p>',
      '<span class="highlight">deploy</span>',
    ]);
  });

  it("keeps the index in step with edits and deletions", async () => {
    const { hamlet, iago } = server.users;
    let res = await server.api.patch("/api/v1/messages/3", {
      as: hamlet,
      params: { content: "deploy pizza" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    res = await server.api.patch("/api/v1/messages/2", { as: hamlet, params: { topic: "ci" } });
    expect(res.body).toEqual({ result: "success", msg: "" });
    res = await server.api.delete("/api/v1/messages/1", { as: iago });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await ids(hamlet, [["search", "deploy"]])).toEqual([2, 3, 4]);
    expect(await ids(hamlet, [["search", "pizza"]])).toEqual([3]);
    expect(await ids(hamlet, [["search", "ci"]])).toEqual([2]);
    expect(await ids(hamlet, [["search", "staging"]])).toEqual([]);
  });

  it("narrows by has, is, sender, id, dm and in, with negation", async () => {
    const { hamlet, othello } = server.users;
    expect(await ids(hamlet, [["has", "link"]])).toEqual([2]);
    expect(
      await ids(hamlet, [["stream", "Denmark"], { operator: "has", operand: "link", negated: true }]),
    ).toEqual([1, 3, 6]);
    expect(await ids(hamlet, [["has", "image"]])).toEqual([]);
    expect(await ids(hamlet, [["has", "attachment"]])).toEqual([]);
    expect(await ids(hamlet, [["is", "mentioned"]])).toEqual([6]);
    expect(await ids(hamlet, [["is", "unread"]])).toEqual([6]);
    expect(
      await ids(othello, [
        ["is", "unread"],
        ["sender", hamlet.email],
      ]),
    ).toEqual([1, 2, 3, 4]);
    expect(await ids(hamlet, [{ operator: "sender", operand: hamlet.id, negated: true }])).toEqual([6]);
    expect(await ids(hamlet, [{ operator: "id", operand: 3 }])).toEqual([3]);
    expect(await ids(hamlet, [["id", "5"]])).toEqual([]);
    expect(await ids(hamlet, [["dm", othello.email]])).toEqual([4]);
    expect(await ids(hamlet, [{ operator: "dm", operand: [othello.id] }])).toEqual([4]);
    expect(
      await ids(hamlet, [
        ["pm-with", othello.email],
        ["search", "thing"],
      ]),
    ).toEqual([4]);
    expect(await ids(hamlet, [["in", "all"]])).toEqual([1, 2, 3, 4, 6]);
    expect(
      await ids(hamlet, [
        ["near", "3"],
        ["stream", "Denmark"],
        ["topic", "lunch"],
      ]),
    ).toEqual([3]);
    const star = await server.api.post("/api/v1/messages/flags", {
      as: hamlet,
      params: { messages: "[2]", op: "add", flag: "starred" },
    });
    expect(star.status).toBe(200);
    expect(await ids(hamlet, [["is", "starred"]])).toEqual([2]);
    expect(await ids(hamlet, [{ operator: "is", operand: "starred", negated: true }])).toEqual([1, 3, 4, 6]);
  });

  it("leaves muted topics out of in:home", async () => {
    const { hamlet } = server.users;
    const res = await server.api.patch("/api/v1/users/me/subscriptions/muted_topics", {
      as: hamlet,
      params: { stream: "Denmark", topic: "lunch", op: "add" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await ids(hamlet, [["in", "home"]])).toEqual([1, 2, 4, 6]);
  });

  it("answers Zulip's BAD_NARROW errors for bad has, id and in operands", async () => {
    const cases: [unknown[], string][] = [
      [[["has", "video"]], "unknown 'has' operand video"],
      [[["id", "x"]], "Invalid message ID"],
      [[["in", "somewhere"]], "unknown 'in' operand somewhere"],
    ];
    for (const [narrow, desc] of cases) {
      const res = await server.api.get("/api/v1/messages", {
        as: server.users.hamlet,
        params: { anchor: "newest", num_before: 10, num_after: 0, narrow },
      });
      expect([res.status, res.body]).toEqual([
        400,
        { result: "error", msg: `Invalid narrow operator: ${desc}`, code: "BAD_NARROW", desc },
      ]);
    }
  });
});

describe("GET /api/v1/messages/matches_narrow", () => {
  it("answers which of the messages match, with highlighted content", async () => {
    const res = await server.api.get("/api/v1/messages/matches_narrow", {
      as: server.users.hamlet,
      params: { msg_ids: "[1, 2, 3, 5]", narrow: JSON.stringify([["search", "deploy"]]) },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      messages: {
        "1": {
          match_content: '<p>The <span class="highlight">deploy</span> failed on staging</p>',
          match_subject: '<span class="highlight">deploy</span>',
        },
        "2": {
          match_content:
            '<p><span class="highlight">Deploys</span> are green again: <a href="https://example.com/ci">https://example.com/ci</a></p>',
          match_subject: '<span class="highlight">deploy</span>',
        },
      },
    });
  });

  it("answers the rendered content and topic for a narrow without search", async () => {
    const res = await server.api.get("/api/v1/messages/matches_narrow", {
      as: server.users.hamlet,
      params: { msg_ids: "[3, 4]", narrow: JSON.stringify([["stream", "Denmark"]]) },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      messages: { "3": { match_content: "<p>pizza today?</p>", match_subject: "lunch" } },
    });
  });

  it("requires msg_ids and narrow", async () => {
    const res = await server.api.get("/api/v1/messages/matches_narrow", {
      as: server.users.hamlet,
      params: { narrow: "[]" },
    });
    expect([res.status, res.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'msg_ids' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "msg_ids",
      },
    ]);
  });
});

describe("POST /api/v1/messages/render", () => {
  it("renders Markdown as the user would send it", async () => {
    const res = await server.api.post("/api/v1/messages/render", {
      as: server.users.hamlet,
      params: { content: "**bold** #**Denmark**" },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      rendered:
        '<p><strong>bold</strong> <a class="stream" data-stream-id="2" href="/#narrow/stream/2-Denmark">#Denmark</a></p>',
    });
  });

  it("requires content", async () => {
    const res = await server.api.post("/api/v1/messages/render", { as: server.users.hamlet, params: {} });
    expect([res.status, res.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'content' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "content",
      },
    ]);
  });
});
