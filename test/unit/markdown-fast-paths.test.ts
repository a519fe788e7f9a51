/**
 * The renderer's shortcuts (src/domain/markdown/fast-paths.ts) against the full renderer: the plain
 * text path and the link normalisers must give exactly what markdown-it gives, on generated inputs
 * (fast-check) and on every message the integrations' fixtures expect. Each property also checks
 * that the shortcut was actually taken on a good share of its inputs, so that it is not vacuous.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import {
  fastNormalizeLink,
  fastNormalizeLinkText,
  plainParagraphsHtml,
} from "../../src/domain/markdown/fast-paths.js";
import { compileLinkifier } from "../../src/domain/markdown/linkifiers.js";
import type { RenderContext } from "../../src/domain/markdown/render.js";
import { renderMarkdown, renderMarkdownFull } from "../../src/domain/markdown/render.js";

const ctx: RenderContext = {
  users: [{ id: 10, fullName: "King Hamlet" }],
  streams: [{ id: 3, name: "Verona" }],
};

/** Letters of several scripts, marks, digits, and every character markdown or Zulip reacts to. */
const textUnit = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZ") },
  { weight: 4, arbitrary: fc.constantFrom(" ", " ", "\n", "\n\n") },
  { weight: 3, arbitrary: fc.constantFrom(..."éßøñçЖжΩλ中文字あア한ท", "\u0301", "\u093f") },
  { weight: 3, arbitrary: fc.constantFrom(..."0123456789") },
  { weight: 3, arbitrary: fc.constantFrom(..."',.?!()-") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...'*_`~[]<>&"#@:=+|\\/%{}^$;\t\r\u00a0\u2028',
      "1. ",
      "- ",
      "    ",
      "---",
      "===",
      "example.com",
      "www.zulip.org",
      "a@b.org",
      "http://x.org",
      "&amp;",
      "😀",
      "1.2.3.4",
      "...",
    ),
  },
);
const text = fc.string({ unit: textUnit, maxLength: 60, size: "medium" });
/** Texts the plain path should take often: letters, spaces, newlines and the allowed punctuation. */
const plainish = fc.string({
  unit: fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzÉéЖ中") },
    { weight: 5, arbitrary: fc.constantFrom(" ") },
    { weight: 2, arbitrary: fc.constantFrom("\n", "\n\n", "\n\n\n") },
    { weight: 2, arbitrary: fc.constantFrom(..."',.?!()-0123456789") },
    { weight: 1, arbitrary: fc.constantFrom(". ", "x.y", " 1. ", "\u0301") },
    { weight: 1, arbitrary: fc.constantFrom(..."*_`[]:@#&<\\", "~~", "**", "](x)") },
  ),
  maxLength: 80,
  size: "medium",
});

/** Sentences of words: mostly what the plain path takes, sometimes with a markup character. */
const word = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzÉéЖ中0123"),
  minLength: 1,
  maxLength: 8,
});
const joint = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(" ", " ", " ", ", ", ". ", "? ", "! ", "'s ", "-", " (", ") ") },
  { weight: 2, arbitrary: fc.constantFrom(" *", "_", "` ", ":", " @", "..", " #", "  ") },
);
const line = fc.array(fc.tuple(word, joint), { minLength: 1, maxLength: 8 }).map((parts) =>
  parts
    .map(([w, j]) => w + j)
    .join("")
    .trimEnd(),
);
const sentences = fc
  .array(fc.tuple(line, fc.constantFrom("\n", "\n", "\n\n", "\n\n\n")), { minLength: 1, maxLength: 5 })
  .map((parts) =>
    parts
      .map(([l, sep]) => l + sep)
      .join("")
      .replace(/\n+$/, ""),
  );

describe("plain text path", () => {
  it("renders exactly as the full renderer, or declines", () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(text, plainish, sentences), (content) => {
        if (plainParagraphsHtml(content, []) !== undefined) taken++;
        expect(renderMarkdown(content, ctx)).toEqual(renderMarkdownFull(content, ctx));
      }),
      { numRuns: 6000 },
    );
    expect(taken).toBeGreaterThan(1000);
  });

  it("declines text a realm linkifier would link, and matches the full renderer", async () => {
    const linkifiers = [
      await compileLinkifier("#(?P<id>[0-9]+)", "https://tracker.example.com/{id}"),
      await compileLinkifier("(?P<word>ab[a-z]*)", "https://example.com/w/{word}"),
    ];
    const withLinkifiers: RenderContext = { ...ctx, linkifiers };
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(plainish, sentences), (content) => {
        if (plainParagraphsHtml(content, linkifiers) !== undefined) taken++;
        expect(renderMarkdown(content, withLinkifiers)).toEqual(renderMarkdownFull(content, withLinkifiers));
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(300);
    expect(renderMarkdown("see about it", withLinkifiers).html).toBe(
      '<p>see <a href="https://example.com/w/about" title="https://example.com/w/about">about</a> it</p>',
    );
  });

  it("renders paragraphs and line breaks as markdown-it does", () => {
    expect(plainParagraphsHtml("hello world, how are you?", [])).toBe("<p>hello world, how are you?</p>");
    expect(plainParagraphsHtml("one\ntwo\n\n\nthree", [])).toBe("<p>one<br>\ntwo</p>\n<p>three</p>");
    expect(plainParagraphsHtml("see example.com", [])).toBeUndefined();
    expect(plainParagraphsHtml("1. first", [])).toBeUndefined();
    expect(plainParagraphsHtml("trailing  \nspace", [])).toBeUndefined();
  });
});

const ref = new MarkdownIt("default", { html: false, linkify: true, breaks: true });
const label = fc.string({
  unit: fc.constantFrom(..."abcxyzABC0129-_", "xn--", "é"),
  minLength: 0,
  maxLength: 12,
});
const urlRestUnit = fc.constantFrom(
  ..."abcXYZ0189/?#;:@&=+$,-_.!~*'()%[]{}|\\^`\"<> é中😀\t",
  "%2F",
  "%zz",
  "%e2%82%ac",
  "//",
);
const looseUrl = fc
  .tuple(
    fc.constantFrom("https://", "http://", "HTTP://", "ftp://", "mailto:", "//", "javascript:", ""),
    fc.array(label, { minLength: 1, maxLength: 4 }),
    fc.constantFrom("", ":8080", ":", "@host", "user@"),
    fc.string({ unit: urlRestUnit, maxLength: 40 }),
  )
  .map(([scheme, labels, extra, rest]) => scheme + labels.join(".") + extra + rest);
const urls = fc.oneof(
  fc.webUrl({ validSchemes: ["http", "https"], withQueryParameters: true, withFragments: true }),
  looseUrl,
  fc.constant(
    "https://" +
      "a".repeat(63) +
      "." +
      "b".repeat(63) +
      "." +
      "c".repeat(63) +
      "." +
      "d".repeat(63) +
      ".com/x",
  ),
);

describe("link normalisers", () => {
  it.each([
    ["normalizeLink", fastNormalizeLink, (u: string) => ref.normalizeLink(u)],
    ["normalizeLinkText", fastNormalizeLinkText, (u: string) => ref.normalizeLinkText(u)],
  ] as const)("%s: the shortcut answers as markdown-it's own", (_name, wrap, full) => {
    let fullCalls = 0;
    const fast = wrap((u) => {
      fullCalls++;
      return full(u);
    });
    const runs = 10_000;
    fc.assert(
      fc.property(urls, (url) => {
        expect(fast(url)).toBe(full(url));
      }),
      { numRuns: runs },
    );
    expect(runs - fullCalls).toBeGreaterThan(runs / 10);
  });

  it("renders links in Markdown exactly as the full renderer", () => {
    const linkText = fc.string({ unit: fc.constantFrom(..."ab c`*_"), maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(linkText, urls, fc.boolean()), { maxLength: 4 }), (parts) => {
        const content = parts.map(([t, u, bare]) => (bare ? `see ${u} now` : `* [${t}](${u})`)).join("\n");
        expect(renderMarkdown(content, ctx)).toEqual(renderMarkdownFull(content, ctx));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("every message the integration fixtures expect", () => {
  it("renders exactly as the full renderer", () => {
    const root = path.resolve("integrations");
    let checked = 0;
    for (const dir of fs.readdirSync(root)) {
      const cases = path.join(root, dir, "fixtures", "cases");
      if (!fs.existsSync(cases)) continue;
      for (const file of fs.readdirSync(cases)) {
        if (!file.endsWith(".json")) continue;
        const c = JSON.parse(fs.readFileSync(path.join(cases, file), "utf8")) as {
          expected_message?: unknown;
        };
        if (typeof c.expected_message !== "string") continue;
        expect(renderMarkdown(c.expected_message, ctx)).toEqual(renderMarkdownFull(c.expected_message, ctx));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });
});
