import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, nextEvents, registerQueue, waitForWaiters } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("message events through the real messaging endpoints", () => {
  it("delivers a private message to a blocked client, rendered per queue, with each recipient's flags", async () => {
    server = await startTestServer({ clock: new ManualClock() });
    const { api, users } = server;
    const html = await registerQueue(server, users.hamlet, {
      event_types: ["message"],
      apply_markdown: true,
    });
    const raw = await registerQueue(server, users.othello, {
      event_types: ["message"],
      apply_markdown: false,
      client_gravatar: false,
    });
    const waiting = nextEvents(html);
    await waitForWaiters(server, 1);
    const sent = await api.post("/api/v1/messages", {
      as: users.othello,
      params: {
        type: "private",
        to: JSON.stringify([users.hamlet.id]),
        content: "hello **world**",
        queue_id: raw.id,
        local_id: "1.01",
      },
    });
    expect(sent.status).toBe(200);
    const id = sent.body.id as number;
    const message = {
      id,
      sender_id: 4,
      content: "<p>hello <strong>world</strong></p>",
      recipient_id: 1,
      timestamp: 1767225600,
      client: "node",
      subject: "",
      subject_links: [],
      topic_links: [],
      is_me_message: false,
      reactions: [],
      submessages: [],
      sender_full_name: "Othello, the Moor of Venice",
      sender_email: "othello@zulip.com",
      sender_short_name: "othello",
      sender_realm_str: "zulip",
      display_recipient: [
        {
          email: "hamlet@zulip.com",
          full_name: "King Hamlet",
          id: 3,
          short_name: "hamlet",
          is_mirror_dummy: false,
        },
        {
          email: "othello@zulip.com",
          full_name: "Othello, the Moor of Venice",
          id: 4,
          short_name: "othello",
          is_mirror_dummy: false,
        },
      ],
      type: "private",
      avatar_url: null,
      content_type: "text/html",
    };
    // The recipient's queue: rendered HTML, client_gravatar (register's default), unread (no flags).
    expect(await waiting).toEqual([{ type: "message", message, flags: [], id: 0 }]);

    // The sender's own queue: Markdown, the sender's flags, and the local echo id. (Zulip's OpenAPI does
    // not document local_message_id, so this one response skips the schema check.)
    expect(await drainEvents(raw, { skipSchemaCheck: true })).toEqual([
      {
        type: "message",
        message: {
          ...message,
          content: "hello **world**",
          content_type: "text/x-markdown",
          avatar_url:
            "https://secure.gravatar.com/avatar/23f350365c96af9aaf864778f4728375?d=identicon&version=1",
        },
        flags: ["read"],
        local_message_id: "1.01",
        id: 0,
      },
    ]);
  });
});
