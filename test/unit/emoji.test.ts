import { describe, expect, it } from "@jest/globals";
import { EMOJI_CODEPOINTS } from "../../src/domain/markdown/emoji.js";
import { renderMarkdown } from "../../src/domain/markdown/render.js";
import { checkEmoji, emojiByName } from "../../src/domain/messages/reaction-emoji.js";

describe("the emoji set (iamcal's emoji-datasource plus Zulip's names)", () => {
  it("knows names beyond the old hand-written table, with Zulip's codes", () => {
    expect(EMOJI_CODEPOINTS["rocket"]).toBe("1f680");
    expect(EMOJI_CODEPOINTS["tada"]).toBe("1f389");
    // A fully-qualified sequence loses its trailing -fe0f, as Zulip writes codes.
    expect(EMOJI_CODEPOINTS["heart"]).toBe("2764");
    expect(EMOJI_CODEPOINTS["flag-dk"]).toBe("1f1e9-1f1f0");
    // Zulip's own names for code points iamcal names differently.
    expect(EMOJI_CODEPOINTS["thinking"]).toBe("1f914");
    expect(EMOJI_CODEPOINTS["thinking_face"]).toBe("1f914");
    expect(EMOJI_CODEPOINTS["constructor"]).toBeUndefined();
  });

  it("renders :rocket: and :tada: in Markdown", () => {
    expect(renderMarkdown("Launch :rocket: :tada: :nope:", { users: [] }).html).toBe(
      '<p>Launch <span aria-label="rocket" class="emoji emoji-1f680" role="img" title="rocket">:rocket:</span> ' +
        '<span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span> :nope:</p>',
    );
  });

  it("accepts the new names in reactions", () => {
    expect(emojiByName("tada")).toEqual({ emojiCode: "1f389", reactionType: "unicode_emoji" });
    expect(checkEmoji("rocket", "1f680", "unicode_emoji")).toBe("unicode_emoji");
  });
});
