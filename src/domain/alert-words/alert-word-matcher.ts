/** A letter, a digit or an underscore: what may not touch an alert word on either side. */
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/** WORD_CHARACTER for the ASCII code points, looked up instead of matched. */
const ASCII_WORD = Array.from({ length: 128 }, (_, c) => WORD_CHARACTER.test(String.fromCharCode(c)));

function isWordCharacter(codePoint: number): boolean {
  return codePoint < 128 ? ASCII_WORD[codePoint]! : WORD_CHARACTER.test(String.fromCodePoint(codePoint));
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Whether `i` falls between the two halves of a surrogate pair (no code point starts there). */
function insidePair(text: string, i: number): boolean {
  return (
    i > 0 && i < text.length && isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))
  );
}

/** The code point that ends just before `i`. */
function codePointBefore(text: string, i: number): number {
  const unit = text.charCodeAt(i - 1);
  if (isLowSurrogate(unit) && i >= 2 && isHighSurrogate(text.charCodeAt(i - 2))) {
    return text.codePointAt(i - 2)!;
  }
  return unit;
}

interface TrieNode {
  next: Map<number, TrieNode> | undefined;
  /** The users whose alert word ends here. */
  owners: number[] | undefined;
}

/**
 * Every user's alert words in one trie (of lower-case UTF-16 code units), matched as Zulip matches
 * alert words: case-insensitive, and not inside another word (the code points just before and just
 * after are not letters, digits or underscores). One pass over a message finds the owners of every
 * word in it, however many users and words there are: a match can start only where a word may
 * start, and each start follows the trie for at most the longest word's length.
 */
export class AlertWordMatcher {
  private readonly root: TrieNode = { next: undefined, owners: undefined };
  readonly empty: boolean;

  constructor(wordsByUser: ReadonlyMap<number, readonly string[]>) {
    let words = 0;
    for (const [userId, list] of wordsByUser) {
      for (const word of list) {
        const lower = word.toLowerCase();
        if (lower === "") continue;
        let node = this.root;
        for (let i = 0; i < lower.length; i++) {
          node.next ??= new Map();
          const unit = lower.charCodeAt(i);
          let child = node.next.get(unit);
          if (child === undefined) {
            child = { next: undefined, owners: undefined };
            node.next.set(unit, child);
          }
          node = child;
        }
        node.owners ??= [];
        if (!node.owners.includes(userId)) node.owners.push(userId);
        words++;
      }
    }
    this.empty = words === 0;
  }

  /** The owners of the alert words `content` contains. */
  owners(content: string): Set<number> {
    const found = new Set<number>();
    if (this.empty) return found;
    const text = content.toLowerCase();
    const n = text.length;
    for (let start = 0; start < n; start++) {
      if (start > 0 && (insidePair(text, start) || isWordCharacter(codePointBefore(text, start)))) continue;
      let node: TrieNode | undefined = this.root;
      for (let i = start; i < n; i++) {
        node = node.next?.get(text.charCodeAt(i));
        if (node === undefined) break;
        if (node.owners === undefined) continue;
        const end = i + 1;
        if (end === n || (!insidePair(text, end) && !isWordCharacter(text.codePointAt(end)!))) {
          for (const owner of node.owners) found.add(owner);
        }
      }
    }
    return found;
  }
}
