import { describe, expect, it } from "@jest/globals";
import { encodeParams, csrfToken } from "../src/lib/api.js";
import { ChatStore } from "../src/lib/chat-store.js";
import type { Message } from "../src/lib/chat-store.js";
import { filterIntegrations, readIntegrations } from "../src/lib/integrations.js";
import { insertMention, matchMentions, mentionAt } from "../src/lib/mentions.js";
import { authorizationHeader, botserverrcSection, buildWebhookUrl, zuliprc } from "../src/lib/url-builder.js";

describe("buildWebhookUrl", () => {
  it("leaves the key out of the URL for the header form, or puts it in the path", () => {
    const input = {
      site: "https://chat.example.com",
      integration: "github",
      apiKey: "abcdefghijklmnopqrstuvwxyz012345",
      stream: "Denmark",
      topic: "",
      onlyEvents: [],
      options: {},
    };
    expect(buildWebhookUrl({ ...input, keyIn: "header" })).toBe(
      "https://chat.example.com/api/v1/external/github?stream=Denmark",
    );
    expect(authorizationHeader(input.apiKey)).toBe("Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345");
    expect(authorizationHeader("")).toBe("Authorization: Bearer <API_KEY>");
    expect(buildWebhookUrl({ ...input, keyIn: "path" })).toBe(
      "https://chat.example.com/api/v1/external/github/abcdefghijklmnopqrstuvwxyz012345?stream=Denmark",
    );
  });

  it("builds the URL to paste into a service", () => {
    expect(
      buildWebhookUrl({
        site: "https://chat.example.com/",
        integration: "github",
        apiKey: "abcdefghijklmnopqrstuvwxyz012345",
        stream: " Denmark ",
        topic: "builds & tests",
        onlyEvents: ["push", "issues*"],
        options: { branches: "main,dev", ignore_private_repositories: "" },
      }),
    ).toBe(
      "https://chat.example.com/api/v1/external/github?api_key=abcdefghijklmnopqrstuvwxyz012345&stream=Denmark" +
        "&topic=builds+%26+tests&only_events=%5B%22push%22%2C%22issues*%22%5D&branches=main%2Cdev",
    );
  });

  it("shows a placeholder without a bot", () => {
    expect(
      buildWebhookUrl({
        site: "http://h",
        integration: "jira",
        apiKey: "",
        stream: "",
        topic: "",
        onlyEvents: [],
        options: {},
      }),
    ).toBe("http://h/api/v1/external/jira?api_key=<API_KEY>");
  });
});

describe("zuliprc and botserverrc", () => {
  it("write the files the Zulip tools read", () => {
    expect(zuliprc("bot-bot@x.com", "KEY", "http://h")).toBe(
      "[api]\nemail=bot-bot@x.com\nkey=KEY\nsite=http://h\n",
    );
    expect(botserverrcSection("xkcd", "comics-bot@x.com", "KEY", "http://h", "TOKEN")).toBe(
      "[xkcd]\nemail=comics-bot@x.com\nkey=KEY\nsite=http://h\ntoken=TOKEN\n",
    );
  });
});

describe("mentions", () => {
  const people = [
    { full_name: "King Hamlet", email: "hamlet@zulip.com", is_bot: false },
    { full_name: "Othello, the Moor of Venice", email: "othello@zulip.com", is_bot: false },
    { full_name: "helloworld", email: "helloworld-bot@zulip.com", is_bot: true },
  ];
  it("finds the mention being typed", () => {
    expect(mentionAt("hi @ham", 7)).toEqual({ start: 3, query: "ham" });
    expect(mentionAt("@**hel", 6)).toEqual({ start: 0, query: "hel" });
    expect(mentionAt("mail a@b", 8)).toBeUndefined();
  });
  it("matches names by any word and emails", () => {
    expect(matchMentions(people, "ham").map((p) => p.email)).toEqual(["hamlet@zulip.com"]);
    expect(matchMentions(people, "moor").map((p) => p.email)).toEqual(["othello@zulip.com"]);
    expect(matchMentions(people, "hel").map((p) => p.email)).toEqual(["helloworld-bot@zulip.com"]);
  });
  it("inserts Zulip's mention syntax", () => {
    expect(insertMention("hi @ham!", 7, { start: 3, query: "ham" }, "King Hamlet")).toEqual({
      text: "hi @**King Hamlet** !",
      caret: 20,
    });
  });
});

describe("api helpers", () => {
  it("encode arguments as Zulip does and read the CSRF cookie", () => {
    expect(encodeParams({ a: "x", b: 1, c: [1, 2], d: undefined, e: true }).toString()).toBe(
      "a=x&b=1&c=%5B1%2C2%5D&e=true",
    );
    expect(csrfToken("x=1; csrftoken=abc_-1; y=2")).toBe("abc_-1");
  });
});

describe("integrations directory", () => {
  const list = readIntegrations([
    {
      name: "github",
      display_name: "GitHub",
      categories: ["version-control"],
      description: "Pushes",
      options: [],
      events: ["push"],
    },
    {
      name: "sentry",
      display_name: "Sentry",
      categories: ["monitoring"],
      options: [{ key: "x", label: "X" }],
    },
    { display_name: "nameless" },
  ]);
  it("reads the list defensively and searches by name and category", () => {
    expect(list.map((i) => i.name)).toEqual(["github", "sentry"]);
    expect(list[1]!.options).toEqual([{ key: "x", label: "X" }]);
    expect(filterIntegrations(list, "git", "").map((i) => i.name)).toEqual(["github"]);
    expect(filterIntegrations(list, "", "monitoring").map((i) => i.name)).toEqual(["sentry"]);
    expect(filterIntegrations(list, "push", "monitoring")).toEqual([]);
  });
});

function msg(id: number, streamId: number, topic: string, flags: string[] = []): Message {
  return {
    id,
    sender_id: 2,
    sender_full_name: "Hamlet",
    sender_email: "h@z",
    type: "stream",
    stream_id: streamId,
    display_recipient: streamId === 1 ? "Denmark" : "Verona",
    subject: topic,
    content: `<p>${id}</p>`,
    timestamp: 0,
    flags,
  };
}

describe("ChatStore", () => {
  function loaded(): ChatStore {
    const store = new ChatStore();
    store.loadRegister({
      user_id: 1,
      email: "me@z",
      full_name: "Me",
      realm_users: [{ user_id: 1, email: "me@z", full_name: "Me", is_bot: false }],
      subscriptions: [
        { stream_id: 1, name: "Denmark" },
        { stream_id: 2, name: "Verona" },
      ],
      muted_topics: [["Verona", "noise", 0]],
      unread_msgs: {
        streams: [
          { stream_id: 1, topic: "castle", unread_message_ids: [10, 11] },
          { stream_id: 2, topic: "noise", unread_message_ids: [12] },
          { stream_id: 2, topic: "Signal", unread_message_ids: [13] },
        ],
        pms: [{ unread_message_ids: [14] }],
      },
    });
    return store;
  }

  it("counts unread messages without muted topics", () => {
    const store = loaded();
    const counts = store.unreadCounts();
    expect(counts.total).toBe(4);
    expect(counts.private).toBe(1);
    expect([...counts.byStream]).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(store.topicUnread(counts, 2, "noise")).toBe(1);
    expect(store.isMuted(2, "NOISE")).toBe(true);
  });

  it("follows message, flag and edit events", () => {
    const store = loaded();
    store.addFetched({ streamId: 1 }, [msg(10, 1, "castle")], true);
    store.applyEvents([
      { type: "message", id: 0, message: msg(20, 1, "castle"), flags: [] },
      { type: "message", id: 1, message: msg(21, 1, "castle"), flags: ["read"] },
      { type: "update_message_flags", id: 2, op: "add", flag: "read", messages: [10, 11] },
      { type: "update_message", id: 3, message_id: 20, rendered_content: "<p>edited</p>", edit_timestamp: 5 },
    ]);
    expect(store.feed({ streamId: 1 })!.messages.map((m) => [m.id, m.content, m.flags])).toEqual([
      [10, "<p>10</p>", ["read"]],
      [20, "<p>edited</p>", []],
      [21, "<p>21</p>", ["read"]],
    ]);
    expect(store.unreadCounts().byStream.get(1)).toBe(1);
    expect(store.feed({ streamId: 2 })).toBeUndefined();
    expect([...store.topics.get(1)!.values()]).toEqual([{ name: "castle", maxId: 21 }]);
  });

  it("shows only the contiguous window a narrow loaded", () => {
    const store = loaded();
    store.addFetched({}, [msg(30, 1, "a"), msg(31, 2, "b")], false);
    store.addFetched({ streamId: 1 }, [msg(5, 1, "a")], false);
    expect(store.feed({})!.messages.map((m) => m.id)).toEqual([30, 31]);
    expect(store.feed({ streamId: 1 })!.messages.map((m) => m.id)).toEqual([5, 30]);
  });

  it("keeps drafts from register and drafts events, and unread counts per private conversation", () => {
    const store = new ChatStore();
    const draft = { id: 3, type: "", to: [], topic: "", content: "idea", timestamp: 100 };
    store.loadRegister({
      user_id: 1,
      drafts: [draft],
      unread_msgs: {
        pms: [{ other_user_id: 7, sender_id: 7, unread_message_ids: [40, 41] }],
        huddles: [{ user_ids_string: "1,7,9", unread_message_ids: [42] }],
      },
    });
    store.applyEvents([
      { type: "drafts", id: 0, op: "add", drafts: [{ ...draft, id: 4, content: "second" }] },
      { type: "drafts", id: 1, op: "update", draft: { ...draft, content: "idea, edited" } },
      { type: "drafts", id: 2, op: "remove", draft_id: 4 },
    ]);
    expect([...store.drafts.values()].map((d) => [d.id, d.content])).toEqual([[3, "idea, edited"]]);
    expect([...store.privateUnread()]).toEqual([
      ["7", 2],
      ["7,9", 1],
    ]);
    expect(store.unreadCounts().private).toBe(3);
  });
});
