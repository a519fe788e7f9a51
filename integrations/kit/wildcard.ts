/**
 * Shell-style wildcard matching with the semantics of Python's `fnmatch.fnmatch` (what Zulip uses
 * for `only_events` / `exclude_events`): `*` any run of characters, `?` one character, `[...]` a
 * character class (`[!...]` negated, `a-z` ranges, a `]` first in the class is a member, a `[` with
 * no closing `]` is a literal `[`); everything else literal; case-sensitive; the whole name must
 * match.
 *
 * Malformed classes behave as in Python, never as an error: a reversed range (`[z-a]`) is an empty
 * range, so `[z-a]` matches no character at all (Python compiles it to `(?!)`).
 *
 * Linear in practice, O(pattern × name) at worst: the pattern is tokenised once and matched with
 * the two-pointer algorithm (one backtrack point, the last `*`), never through a backtracking
 * regular expression. Patterns longer than MAX_WILDCARD_PATTERN_LENGTH are refused (see
 * `checkWildcardPatterns`), which bounds the cost of one request.
 */

/** The most patterns one `only_events` / `exclude_events` argument may list. */
export const MAX_WILDCARD_PATTERNS = 100;
/** The longest pattern (in characters) one may be. */
export const MAX_WILDCARD_PATTERN_LENGTH = 200;

interface Range {
  lo: number;
  hi: number;
}

type Token =
  | { kind: "star" }
  | { kind: "any" }
  | { kind: "lit"; cp: number }
  | { kind: "class"; negate: boolean; ranges: Range[] }
  | { kind: "never" };

const cp = (s: string): number => s.codePointAt(0) ?? 0;

/** Python's fnmatch handling of `[...]` starting at `i` (just after the `[`); undefined = literal `[`. */
function parseClass(chars: readonly string[], start: number): { token: Token; next: number } | undefined {
  const n = chars.length;
  let j = start;
  if (j < n && chars[j] === "!") j++;
  if (j < n && chars[j] === "]") j++;
  while (j < n && chars[j] !== "]") j++;
  if (j >= n) return undefined;

  // Split on '-' as Python does: the first character of the class (after '!') is never a range
  // separator, and the character after a separator is always a range end.
  const chunks: string[][] = [];
  let i = start;
  let k = chars[start] === "!" ? start + 2 : start + 1;
  for (;;) {
    let dash = -1;
    for (let q = k; q < j; q++) {
      if (chars[q] === "-") {
        dash = q;
        break;
      }
    }
    if (dash < 0) break;
    chunks.push(chars.slice(i, dash));
    i = dash + 1;
    k = dash + 3;
  }
  const last = chars.slice(i, j);
  if (last.length > 0 || chunks.length === 0) chunks.push(last);
  else chunks[chunks.length - 1]?.push("-");
  // Remove empty (reversed) ranges, as Python does before compiling.
  for (let q = chunks.length - 1; q > 0; q--) {
    const prev = chunks[q - 1] ?? [];
    const cur = chunks[q] ?? [];
    const prevLast = prev[prev.length - 1];
    const curFirst = cur[0];
    if (prevLast !== undefined && curFirst !== undefined && cp(prevLast) > cp(curFirst)) {
      chunks[q - 1] = [...prev.slice(0, -1), ...cur.slice(1)];
      chunks.splice(q, 1);
    }
  }
  const flat = chunks.flat();
  const next = j + 1;
  if (flat.length === 0) return { token: { kind: "never" }, next };
  if (flat.length === 1 && flat[0] === "!") return { token: { kind: "any" }, next };

  const negate = chunks[0]?.[0] === "!";
  if (negate) chunks[0] = (chunks[0] ?? []).slice(1);
  const ranges: Range[] = [];
  for (let q = 0; q < chunks.length; q++) {
    const chunk = chunks[q] ?? [];
    for (let c = 0; c < chunk.length; c++) {
      const ch = chunk[c] ?? "";
      const isRangeStart = c === chunk.length - 1 && q < chunks.length - 1;
      const isRangeEnd = c === 0 && q > 0;
      if (isRangeStart) {
        const end = chunks[q + 1]?.[0];
        ranges.push({ lo: cp(ch), hi: end === undefined ? cp(ch) : cp(end) });
      } else if (!isRangeEnd) {
        ranges.push({ lo: cp(ch), hi: cp(ch) });
      }
    }
  }
  // A leading '!' alone before a range start (`[!-…`) cannot happen: Python skips it.
  return { token: { kind: "class", negate, ranges }, next };
}

function tokenize(pattern: string): Token[] {
  const chars = Array.from(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length;) {
    const ch = chars[i] ?? "";
    if (ch === "*") {
      // Consecutive stars are one star.
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
      i++;
    } else if (ch === "?") {
      tokens.push({ kind: "any" });
      i++;
    } else if (ch === "[") {
      const cls = parseClass(chars, i + 1);
      if (cls === undefined) {
        tokens.push({ kind: "lit", cp: cp("[") });
        i++;
      } else {
        tokens.push(cls.token);
        i = cls.next;
      }
    } else {
      tokens.push({ kind: "lit", cp: cp(ch) });
      i++;
    }
  }
  return tokens;
}

function matchesOne(token: Token, c: number): boolean {
  switch (token.kind) {
    case "any":
      return true;
    case "lit":
      return token.cp === c;
    case "never":
      return false;
    case "star":
      return false;
    case "class": {
      const inside = token.ranges.some((r) => r.lo <= c && c <= r.hi);
      return token.negate ? !inside : inside;
    }
  }
}

/** A compiled pattern: tokenise once, match many names. */
export function compileWildcard(pattern: string): (name: string) => boolean {
  const tokens = tokenize(pattern);
  return (name) => {
    const s = Array.from(name, cp);
    let p = 0;
    let i = 0;
    let starP = -1;
    let starI = 0;
    while (i < s.length) {
      const t = tokens[p];
      if (t !== undefined && t.kind === "star") {
        starP = p++;
        starI = i;
      } else if (t !== undefined && matchesOne(t, s[i] ?? 0)) {
        p++;
        i++;
      } else if (starP >= 0) {
        // Let the last star absorb one more character and retry after it.
        p = starP + 1;
        i = ++starI;
      } else {
        return false;
      }
    }
    while (tokens[p]?.kind === "star") p++;
    return p === tokens.length;
  };
}

/** Shell-style wildcard match (Python's fnmatch): `*`, `?` and `[...]` classes; the whole name must match. */
export function wildcardMatch(pattern: string, name: string): boolean {
  return compileWildcard(pattern)(name);
}

/**
 * Bounds the patterns of one request: at most MAX_WILDCARD_PATTERNS, each at most
 * MAX_WILDCARD_PATTERN_LENGTH characters. Returns the reason a list is refused, or undefined.
 */
export function wildcardPatternsProblem(argName: string, patterns: readonly string[]): string | undefined {
  if (patterns.length > MAX_WILDCARD_PATTERNS) {
    return `${argName} may list at most ${MAX_WILDCARD_PATTERNS} patterns`;
  }
  if (patterns.some((p) => p.length > MAX_WILDCARD_PATTERN_LENGTH)) {
    return `${argName}: a pattern may be at most ${MAX_WILDCARD_PATTERN_LENGTH} characters long`;
  }
  return undefined;
}
