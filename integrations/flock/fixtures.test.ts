import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import flock from "./index.js";

const here = new URL(".", import.meta.url);

/** Zulip's own Flock fixtures beyond the recorded cases, with the message Zulip's tests expect. */
const ZULIP: [string, { topic: string; body: string }][] = [
  [
    "message__zulip_pinned",
    { topic: "Flock notifications", body: "Rishabh rawat pinned an item to the conversation" },
  ],
  [
    "message__zulip_todo",
    { topic: "Flock notifications", body: "Rishabh rawat added a to-do in New List 1 list" },
  ],
  ["message__zulip_reply_reminder", { topic: "Flock notifications", body: "This is a reply to Reminder." }],
];

describe("flock: Zulip's other fixtures", () => {
  for (const [name, expected] of ZULIP) {
    it(`posts ${name} as Zulip does`, () => {
      expectFixture(flock, here, name, expected);
    });
  }
});
