import { describe, expect, it } from "@jest/globals";
import { ChatStore } from "../src/lib/chat-store.js";
import { insertEmoji } from "../src/lib/emoji.js";

const tick = { id: "1", name: "tick", source_url: "/user_avatars/1/emoji/images/a.png", deactivated: false };
const cross = {
  id: "2",
  name: "cross",
  source_url: "/user_avatars/1/emoji/images/b.png",
  deactivated: false,
};

describe("custom emoji in the web app", () => {
  it("lists register's active custom emoji by name and follows realm_emoji events", () => {
    const store = new ChatStore();
    store.loadRegister({ user_id: 3, realm_emoji: { "1": tick, "2": { ...cross, deactivated: true } } });
    expect([...store.customEmoji.entries()]).toEqual([["tick", tick]]);
    store.applyEvents([
      { type: "realm_emoji", op: "update", realm_emoji: { "1": { ...tick, deactivated: true }, "2": cross } },
    ]);
    expect([...store.customEmoji.entries()]).toEqual([["cross", cross]]);
  });

  it("inserts :name: at the caret, apart from a preceding word", () => {
    expect(insertEmoji("", 0, "tick")).toEqual({ text: ":tick: ", caret: 7 });
    expect(insertEmoji("done", 4, "tick")).toEqual({ text: "done :tick: ", caret: 12 });
    expect(insertEmoji("a  b", 2, "x")).toEqual({ text: "a :x:  b", caret: 6 });
  });
});
