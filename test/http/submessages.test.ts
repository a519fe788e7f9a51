import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// A public stream "Denmark" of hamlet, othello and iago; cordelia is not subscribed.
const SUBS = "/api/v1/users/me/subscriptions";
const SUCCESS = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

let server: MessagingServer;

beforeEach(async () => {
  server = await startMessagingServer();
  const { api, users } = server;
  const created = await api.post(SUBS, {
    as: users.hamlet,
    params: {
      subscriptions: [{ name: "Denmark" }],
      principals: [users.hamlet.email, users.othello.email, users.iago.email],
    },
  });
  expect(created.status).toBe(200);
});
afterEach(async () => {
  await server.close();
});

async function submessagesOf(id: number, as: TestUser): Promise<unknown> {
  const res = await server.api.get(`/api/v1/messages/${id}`, { as });
  expect(res.status).toBe(200);
  return res.body.message.submessages;
}

function vote(as: TestUser, messageId: number, content: object) {
  return server.api.post("/api/v1/submessage", {
    as,
    params: { message_id: messageId, msg_type: "widget", content: JSON.stringify(content) },
  });
}

describe("widgets made by /poll and /todo", () => {
  it("gives a /poll message its poll, in the message event and when fetched", async () => {
    const { users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["message"] });
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "lunch",
      content: "/poll Tea or coffee?\nTea\n\nCoffee  ",
    });
    const poll = {
      msg_type: "widget",
      content: JSON.stringify({
        widget_type: "poll",
        extra_data: { question: "Tea or coffee?", options: ["Tea", "Coffee"] },
      }),
      message_id: id,
      sender_id: users.hamlet.id,
      id: 1,
    };
    const [event] = await drainEvents(q);
    expect(event?.message.submessages).toEqual([poll]);
    expect(await submessagesOf(id, users.othello)).toEqual([poll]);
  });

  it("gives a /todo message its task list, each line a task with an optional description", async () => {
    const { users } = server;
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "chores",
      content: "/todo Before Friday\n- Buy milk: semi-skimmed\nWater the plants",
    });
    expect(await submessagesOf(id, users.hamlet)).toEqual([
      {
        msg_type: "widget",
        content: JSON.stringify({
          widget_type: "todo",
          extra_data: {
            task_list_title: "Before Friday",
            tasks: [
              { task: "Buy milk", desc: "semi-skimmed" },
              { task: "Water the plants", desc: "" },
            ],
          },
        }),
        message_id: id,
        sender_id: users.hamlet.id,
        id: 1,
      },
    ]);
  });

  it("leaves other messages, and /pollster, without a widget", async () => {
    const { users } = server;
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "/pollster",
    });
    expect(await submessagesOf(id, users.hamlet)).toEqual([]);
  });
});

describe("POST /api/v1/submessage", () => {
  it("records a vote and sends the submessage event to everyone who received the message", async () => {
    const { users } = server;
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "lunch",
      content: "/poll Q\nA",
    });
    const queues = await Promise.all(
      [users.hamlet, users.othello, users.cordelia].map((u) =>
        registerQueue(server, u, { event_types: ["submessage"] }),
      ),
    );
    const content = JSON.stringify({ type: "vote", key: "canned,0", vote: 1 });
    const res = await server.api.post("/api/v1/submessage", {
      as: users.othello,
      params: { message_id: id, msg_type: "widget", content },
    });
    expect(res.body).toEqual(SUCCESS);
    const expected = {
      type: "submessage",
      msg_type: "widget",
      message_id: id,
      submessage_id: 2,
      sender_id: users.othello.id,
      content,
      id: 0,
    };
    expect(await Promise.all(queues.map((q) => drainEvents(q)))).toEqual([[expected], [expected], []]);
    expect(((await submessagesOf(id, users.hamlet)) as unknown[])[1]).toEqual({
      msg_type: "widget",
      content,
      message_id: id,
      sender_id: users.othello.id,
      id: 2,
    });
  });

  it("adds options and to-do tasks, and ticks tasks", async () => {
    const { users } = server;
    const poll = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "p",
      content: "/poll Q",
    });
    expect((await vote(users.othello, poll, { type: "new_option", idx: 1, option: "Soup" })).body).toEqual(
      SUCCESS,
    );
    const todo = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "/todo List",
    });
    const task = { type: "new_task", key: 1, task: "Sweep", desc: "", completed: false };
    expect((await vote(users.othello, todo, task)).body).toEqual(SUCCESS);
    expect((await vote(users.iago, todo, { type: "strike", key: "1,4" })).body).toEqual(SUCCESS);
    expect(((await submessagesOf(todo, users.hamlet)) as unknown[]).length).toBe(3);
  });

  it("lets only the author change a poll's question or a list's title", async () => {
    const { users } = server;
    const poll = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "p",
      content: "/poll Q",
    });
    expect((await vote(users.othello, poll, { type: "question", question: "Mine?" })).body).toEqual(
      error("You can't edit a question unless you are the author."),
    );
    expect((await vote(users.hamlet, poll, { type: "question", question: "Better?" })).body).toEqual(SUCCESS);
    const todo = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "/todo L",
    });
    expect((await vote(users.othello, todo, { type: "new_task_list_title", title: "X" })).body).toEqual(
      error("You can't edit the task list title unless you are the author."),
    );
  });

  it("rejects data the widget does not take, bad JSON, another msg_type and an unreadable message", async () => {
    const { api, users } = server;
    const poll = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "p",
      content: "/poll Q",
    });
    expect((await vote(users.othello, poll, { type: "vote", key: "x", vote: 2 })).body).toEqual(
      error("Invalid poll data"),
    );
    const bad = await api.post("/api/v1/submessage", {
      as: users.othello,
      params: { message_id: poll, msg_type: "widget", content: "{" },
    });
    expect(bad.body).toEqual(error("Invalid json for submessage"));
    const type = await api.post("/api/v1/submessage", {
      as: users.othello,
      params: { message_id: poll, msg_type: "other", content: "{}" },
    });
    expect(type.body).toEqual(error("Invalid msg_type"));
    const dm = await send(server, users.hamlet, {
      type: "private",
      to: [users.othello.id],
      content: "/poll Secret",
    });
    expect((await vote(users.cordelia, dm, { type: "vote", key: "canned,0", vote: 1 })).body).toEqual(
      error("Invalid message(s)"),
    );
    const missing = await api.post("/api/v1/submessage", {
      as: users.othello,
      params: { msg_type: "widget", content: "{}" },
    });
    expect(missing.body).toEqual({
      result: "error",
      msg: "Missing 'message_id' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "message_id",
    });
  });
});

describe("widget_content: a bot's zform", () => {
  const zform = {
    widget_type: "zform",
    extra_data: {
      type: "choices",
      heading: "What is 2 + 2?",
      choices: [
        { type: "multiple_choice", short_name: "A", long_name: "4", reply: "answer q1 A" },
        { type: "multiple_choice", short_name: "B", long_name: "5", reply: "answer q1 B" },
      ],
    },
  };

  it("attaches the zform to the bot's message", async () => {
    const { api, users } = server;
    const res = await api.post("/api/v1/messages", {
      as: users.webhookBot,
      params: {
        type: "private",
        to: [users.hamlet.id],
        content: "Quiz time",
        widget_content: JSON.stringify(zform),
      },
    });
    expect(res.status).toBe(200);
    const id = res.body.id as number;
    expect(await submessagesOf(id, users.hamlet)).toEqual([
      {
        msg_type: "widget",
        content: JSON.stringify(zform),
        message_id: id,
        sender_id: users.webhookBot.id,
        id: 1,
      },
    ]);
  });

  it("rejects a widget that is not a valid zform, sending nothing", async () => {
    const { api, users } = server;
    const bad = {
      widget_type: "zform",
      extra_data: { type: "choices", heading: "H", choices: [{ type: "x" }] },
    };
    for (const [content, msg] of [
      ["{", "Widgets: API programmer sent invalid JSON content"],
      [JSON.stringify({ widget_type: "poll", extra_data: {} }), "Widgets: widget_type must be zform"],
      [JSON.stringify(bad), "Widgets: choices[0] has an unknown type"],
    ] as const) {
      const res = await api.post("/api/v1/messages", {
        as: users.webhookBot,
        params: { type: "private", to: [users.hamlet.id], content: "Quiz", widget_content: content },
      });
      expect(res.body).toEqual(error(msg));
    }
    const list = await api.get("/api/v1/messages", {
      as: users.hamlet,
      params: { anchor: "newest", num_before: 5, num_after: 0 },
    });
    expect(list.body.messages).toEqual([]);
  });
});
