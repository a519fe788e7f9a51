import { describe, expect, it } from "@jest/globals";
import { AlertWordMatcher } from "../../src/domain/alert-words/alert-word-matcher.js";

/**
 * The rule as a regular expression (how the server matched before the trie, one expression per
 * word; here one per user, an alternation, which backtracks into the next word when one fails): a
 * word in any case, with no letter, digit or underscore just before or just after it.
 */
function regexAlerts(content: string, list: readonly string[]): boolean {
  const words = list
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length === 0) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.join("|")})(?![\\p{L}\\p{N}_])`, "u").test(
    content.toLowerCase(),
  );
}

function ownersByRegex(words: ReadonlyMap<number, readonly string[]>, content: string): number[] {
  return [...words]
    .filter(([, list]) => regexAlerts(content, list))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

function owners(words: ReadonlyMap<number, readonly string[]>, content: string): number[] {
  return [...new AlertWordMatcher(words).owners(content)].sort((a, b) => a - b);
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("AlertWordMatcher", () => {
  const words = new Map<number, readonly string[]>([
    [1, ["ghost", "Release Train"]],
    [2, ["c++", "GHOST"]],
    [3, ["café", "🚀"]],
    [4, ["_x", "42"]],
  ]);

  it("finds words in any case, phrases with spaces, and words that begin or end with punctuation", () => {
    expect(owners(words, "A GHOST appears")).toEqual([1, 2]);
    expect(owners(words, "the release   train / release train!")).toEqual([1]);
    expect(owners(words, "we write C++ here")).toEqual([2]);
    expect(owners(words, "launch 🚀 now")).toEqual([3]);
    expect(owners(words, "answer: 42.")).toEqual([4]);
  });

  it("does not find a word inside another word: letters (any script), digits and underscores touch it", () => {
    expect(owners(words, "ghosts ghostly aghost ghost_ 9ghost")).toEqual([]);
    expect(owners(words, "cafés écafé")).toEqual([]);
    expect(owners(words, "x_x 421 a42")).toEqual([]);
    expect(owners(words, "(ghost) «café» -42-")).toEqual([1, 2, 3, 4]);
  });

  it("finds nothing when nobody has words, and ignores empty words", () => {
    expect(owners(new Map(), "anything")).toEqual([]);
    expect(owners(new Map([[1, [""]]]), "anything")).toEqual([]);
    expect(new AlertWordMatcher(new Map([[1, [""]]])).empty).toBe(true);
  });

  it("agrees with the regular-expression rule on 1,000 generated messages", () => {
    const next = random(20261129);
    const alphabet = [
      ..."abcABC xyz_0123456789 .,;:!?-()[]'\"",
      "é",
      "É",
      "ß",
      "İ",
      "ı",
      "е", // Cyrillic
      "\u0301", // a combining accent
      "😀",
      "🚀",
      "𝒜", // a letter outside the BMP
      "\ud800", // a lone high surrogate
      "\udc00", // a lone low surrogate
      "\n",
    ];
    const pick = () => alphabet[Math.floor(next() * alphabet.length)]!;
    const text = (max: number) => Array.from({ length: Math.floor(next() * max) }, pick).join("");
    let found = 0;
    for (let round = 0; round < 1_000; round++) {
      const content = text(40);
      const byUser = new Map<number, string[]>();
      for (let user = 1; user <= 3; user++) {
        const list: string[] = [];
        for (let k = 0; k < 3; k++) {
          // Half the words are taken from the message, so that many of them are there.
          const start = Math.floor(next() * content.length);
          list.push(next() < 0.5 ? content.slice(start, start + 1 + Math.floor(next() * 5)).trim() : text(4));
        }
        byUser.set(user, list);
      }
      const expected = ownersByRegex(byUser, content);
      found += expected.length;
      const actual = owners(byUser, content);
      if (actual.join() !== expected.join()) {
        throw new Error(
          `${JSON.stringify(content)} ${JSON.stringify([...byUser])}: ${actual.join()} ≠ ${expected.join()}`,
        );
      }
    }
    // The generated cases matter only if many of them alert someone.
    expect(found).toBeGreaterThan(800);
  });
});
