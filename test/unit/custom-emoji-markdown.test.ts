import { describe, expect, it } from "@jest/globals";
import { customEmojiHtml, emojiNameCandidates } from "../../src/domain/markdown/emoji-custom.js";
import { renderMarkdown } from "../../src/domain/markdown/render.js";

const tick = {
  id: "1",
  name: "green_tick",
  sourceUrl: "/user_avatars/1/emoji/images/0a1b2c3d.png",
  deactivated: false,
};
const IMG =
  '<img alt=":green_tick:" class="emoji" src="/user_avatars/1/emoji/images/0a1b2c3d.png" title="green tick">';

describe("custom emoji in Markdown", () => {
  it("renders :name: of an active custom emoji as Zulip's <img>, also in otherwise plain text", () => {
    expect(renderMarkdown("done :green_tick:", { users: [], customEmoji: [tick] }).html).toBe(
      `<p>done ${IMG}</p>`,
    );
    expect(renderMarkdown(":green_tick:", { users: [], customEmoji: [tick] }).html).toBe(`<p>${IMG}</p>`);
    expect(renderMarkdown("a\n:green_tick: b", { users: [], customEmoji: [tick] }).html).toBe(
      `<p>a<br>\n${IMG} b</p>`,
    );
  });

  it("wins over a Unicode name, leaves code and unknown or deactivated names alone", () => {
    const rocket = { ...tick, name: "rocket" };
    expect(renderMarkdown(":rocket:", { users: [], customEmoji: [rocket] }).html).toBe(
      `<p>${IMG.replace(/green_tick/, "rocket").replace("green tick", "rocket")}</p>`,
    );
    expect(renderMarkdown("`:green_tick:`", { users: [], customEmoji: [tick] }).html).toBe(
      "<p><code>:green_tick:</code></p>",
    );
    expect(
      renderMarkdown(":green_tick:", { users: [], customEmoji: [{ ...tick, deactivated: true }] }).html,
    ).toBe("<p>:green_tick:</p>");
    expect(renderMarkdown(":green_tick:", { users: [] }).html).toBe("<p>:green_tick:</p>");
  });

  it("finds the candidate names and escapes the markup's attributes", () => {
    expect(emojiNameCandidates("a :x: b :y-z: :x: c:d no")).toEqual(["x", "y-z"]);
    expect(emojiNameCandidates("no colons")).toEqual([]);
    expect(customEmojiHtml([{ ...tick, sourceUrl: '/a"b' }], "green_tick")).toBe(
      '<img alt=":green_tick:" class="emoji" src="/a&quot;b" title="green tick">',
    );
  });
});
