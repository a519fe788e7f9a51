import { describe, expect, it } from "@jest/globals";
import { findMentions, renderMarkdown } from "../../src/domain/markdown/render.js";
import { htmlDiff } from "../../src/domain/messages/history.js";

const users = [
  { id: 10, fullName: "King Hamlet" },
  { id: 11, fullName: "Othello, the Moor of Venice" },
  { id: 12, fullName: "Twin" },
  { id: 13, fullName: "Twin" },
];
const streams = [
  { id: 3, name: "Verona" },
  { id: 4, name: "core team" },
];
const html = (content: string) => renderMarkdown(content, { users, streams }).html;

describe("renderMarkdown", () => {
  it.each([
    ["hello", "<p>hello</p>"],
    ["line 1\nline 2", "<p>line 1<br>\nline 2</p>"],
    ["para 1\n\npara 2", "<p>para 1</p>\n<p>para 2</p>"],
    ["**bold** *em* ~~gone~~", "<p><strong>bold</strong> <em>em</em> <s>gone</s></p>"],
    ["`code`", "<p><code>code</code></p>"],
    ["```\nx < y\n```", '<div class="codehilite"><pre><span></span><code>x &lt; y\n</code></pre></div>'],
    ["<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    ["see https://zulip.com", '<p>see <a href="https://zulip.com">https://zulip.com</a></p>'],
    ["[Zulip](https://zulip.com)", '<p><a href="https://zulip.com">Zulip</a></p>'],
    ["* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"],
    ["> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>"],
    ["/me waves", "<p>/me waves</p>"],
  ])("renders %j", (content, expected) => {
    expect(html(content)).toBe(expected);
  });

  it.each([
    ["@**King Hamlet**", '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>'],
    ["@**king hamlet**", '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>'],
    ["@**King Hamlet|10**", '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>'],
    ["@**Twin|13**", '<p><span class="user-mention" data-user-id="13">@Twin</span></p>'],
    ["@_**King Hamlet**", '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>'],
    ["@**all**", '<p><span class="user-mention" data-user-id="*">@all</span></p>'],
    ["@**everyone**", '<p><span class="user-mention" data-user-id="*">@everyone</span></p>'],
    ["@**stream**", '<p><span class="user-mention" data-user-id="*">@stream</span></p>'],
    ["@**Nobody**", "<p>@<strong>Nobody</strong></p>"],
    ["@**Twin**", "<p>@<strong>Twin</strong></p>"],
    ["@**King Hamlet|11**", "<p>@<strong>King Hamlet|11</strong></p>"],
    ["mail@**King Hamlet**", "<p>mail@<strong>King Hamlet</strong></p>"],
    [
      "@**Othello, the Moor of Venice**!",
      '<p><span class="user-mention" data-user-id="11">@Othello, the Moor of Venice</span>!</p>',
    ],
  ])("renders the mention %j", (content, expected) => {
    expect(html(content)).toBe(expected);
  });

  it.each([
    [
      "#**Verona**",
      '<p><a class="stream" data-stream-id="3" href="/#narrow/stream/3-Verona">#Verona</a></p>',
    ],
    [
      "#**core team**",
      '<p><a class="stream" data-stream-id="4" href="/#narrow/stream/4-core-team">#core team</a></p>',
    ],
    [
      "#**Verona>lunch time**",
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/stream/3-Verona/topic/lunch.20time">#Verona &gt; lunch time</a></p>',
    ],
    ["#**Unknown**", "<p>#<strong>Unknown</strong></p>"],
  ])("renders the stream link %j", (content, expected) => {
    expect(html(content)).toBe(expected);
  });

  it.each([
    [
      ":smile:",
      '<p><span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>',
    ],
    [
      ":thumbs_up: :+1:",
      '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span> <span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>',
    ],
    [":not_an_emoji:", "<p>:not_an_emoji:</p>"],
    ["`:smile:`", "<p><code>:smile:</code></p>"],
  ])("renders the emoji %j", (content, expected) => {
    expect(html(content)).toBe(expected);
  });

  it("reports mentions, silent mentions, wildcards and linked streams", () => {
    expect(
      renderMarkdown("@**King Hamlet** @_**Othello, the Moor of Venice** @**all** #**Verona**", {
        users,
        streams,
      }),
    ).toEqual({
      html: '<p><span class="user-mention" data-user-id="10">@King Hamlet</span> <span class="user-mention silent" data-user-id="11">Othello, the Moor of Venice</span> <span class="user-mention" data-user-id="*">@all</span> <a class="stream" data-stream-id="3" href="/#narrow/stream/3-Verona">#Verona</a></p>',
      mentionedUserIds: [10],
      silentlyMentionedUserIds: [11],
      wildcard: true,
      linkedStreamIds: [3],
    });
  });
});

describe("findMentions", () => {
  it("finds mentions outside code only", () => {
    expect(findMentions("hi @**King Hamlet**", users)).toEqual({
      mentionedUserIds: [10],
      silentlyMentionedUserIds: [],
      wildcard: false,
    });
    expect(findMentions("`@**King Hamlet**`\n\n```\n@**all**\n```\n\n    @**King Hamlet**", users)).toEqual({
      mentionedUserIds: [],
      silentlyMentionedUserIds: [],
      wildcard: false,
    });
  });

  it("keeps silent and wildcard mentions apart from personal ones", () => {
    expect(findMentions("@_**King Hamlet** @_**all**", users)).toEqual({
      mentionedUserIds: [],
      silentlyMentionedUserIds: [10],
      wildcard: false,
    });
    expect(findMentions("@**everyone** @_**King Hamlet** @**King Hamlet|10**", users)).toEqual({
      mentionedUserIds: [10],
      silentlyMentionedUserIds: [],
      wildcard: true,
    });
  });
});

describe("htmlDiff", () => {
  it.each([
    ["<p>same</p>", "<p>same</p>", "<p>same</p>"],
    [
      "<p>hello</p>",
      "<p>new content</p>",
      '<p><span class="highlight_text_deleted">hello</span><span class="highlight_text_inserted">new content</span></p>',
    ],
    [
      "<p>hello world</p>",
      "<p>hello big world</p>",
      '<p>hello <span class="highlight_text_inserted">big </span>world</p>',
    ],
    [
      "<p>hello world</p>",
      "<p>hello <strong>big</strong> world</p>",
      '<p>hello <strong><span class="highlight_text_inserted">big</span></strong><span class="highlight_text_inserted"> </span>world</p>',
    ],
    ["<p>a b</p>", "<p>a</p>", '<p>a<span class="highlight_text_deleted"> b</span></p>'],
  ])("diffs %j → %j", async (before, after, expected) => {
    await expect(htmlDiff(before, after)).resolves.toBe(expected);
  });
});
