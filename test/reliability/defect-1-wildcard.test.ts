/**
 * Defect 1 (issue 11): only_events / exclude_events patterns were compiled to a backtracking regex
 * (one `.*` per `*`): 40 stars blocked the event loop for seconds, 80 never returned, and a
 * reversed class (`[z-a]`, defect 3) threw a SyntaxError (500). The matcher is now a two-pointer
 * glob matcher with Python fnmatch's semantics.
 */
import { describe, expect, it } from "@jest/globals";
import { Worker } from "node:worker_threads";
import fc from "fast-check";
import { wildcardMatch, wildcardPatternsProblem } from "../../integrations/kit/wildcard.js";

/** Reference: a port of Python 3.11's fnmatch.translate to a JS RegExp (small inputs only). */
function referenceRegExp(pat: string): RegExp {
  const chars = Array.from(pat);
  const n = chars.length;
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const escClass = (s: string): string => s.replace(/[\]\\^-]/g, "\\$&");
  let res = "";
  let i = 0;
  while (i < n) {
    const c = chars[i++] ?? "";
    if (c === "*") {
      if (!res.endsWith(".*")) res += ".*";
    } else if (c === "?") res += ".";
    else if (c === "[") {
      let j = i;
      if (j < n && chars[j] === "!") j++;
      if (j < n && chars[j] === "]") j++;
      while (j < n && chars[j] !== "]") j++;
      if (j >= n) res += "\\[";
      else {
        const chunks: string[][] = [];
        let k = chars[i] === "!" ? i + 2 : i + 1;
        for (;;) {
          let d = -1;
          for (let q = k; q < j; q++)
            if (chars[q] === "-") {
              d = q;
              break;
            }
          if (d < 0) break;
          chunks.push(chars.slice(i, d));
          i = d + 1;
          k = d + 3;
        }
        const last = chars.slice(i, j);
        if (last.length > 0) chunks.push(last);
        else chunks[chunks.length - 1]!.push("-");
        for (let q = chunks.length - 1; q > 0; q--) {
          const a = chunks[q - 1]!;
          const b = chunks[q]!;
          if (a.length > 0 && b.length > 0 && a[a.length - 1]!.codePointAt(0)! > b[0]!.codePointAt(0)!) {
            chunks[q - 1] = [...a.slice(0, -1), ...b.slice(1)];
            chunks.splice(q, 1);
          }
        }
        let stuff = chunks.map((ch) => ch.map(escClass).join("")).join("-");
        const plain = chunks.flat().join("");
        i = j + 1;
        if (plain === "") res += "(?!)";
        else if (plain === "!") res += ".";
        else {
          if (plain.startsWith("!")) stuff = "^" + stuff.slice(1);
          res += `[${stuff}]`;
        }
      }
    } else res += esc(c);
  }
  return new RegExp(`^(?:${res})$`, "su");
}

/** Values computed with CPython's fnmatch.fnmatchcase, written out. */
const PYTHON_CASES: [string, string, boolean][] = [
  ["[z-a]", "a", false],
  ["[z-a]", "[z-a]", false],
  ["[!b-a]", "x", true],
  ["[a-c-e]", "-", true],
  ["[a-c-e]", "d", false],
  ["[a-c-e]", "e", true],
  ["[]a]", "]", true],
  ["[!]a]", "b", true],
  ["[a-", "[a-", true],
  ["push*", "push", true],
  ["pull_request.*", "pull_request.opened", true],
  ["*.opened", "issues.opened", true],
  ["?ssues", "issues", true],
  ["[!p]*", "push", false],
  ["[^p]*", "^x", true],
  ["a[b", "a[b", true],
  ["*a*a*a*b", "aaaaaaaa", false],
  ["[--z]", "-", true],
  ["[a-]", "-", true],
  ["Push", "push", false],
  ["*", "line\nbreak", true],
  ["[!b-ac]", "c", false],
  ["[!b-ac]", "d", true],
];

describe("defect 1: wildcardMatch", () => {
  it.each(PYTHON_CASES)("%j against %j is %j, as in Python's fnmatch", (pattern, name, expected) => {
    expect(wildcardMatch(pattern, name)).toBe(expected);
  });

  it("agrees with a port of Python's fnmatch.translate on random small patterns", () => {
    const alphabet = fc.constantFrom("a", "b", "c", "-", "!", "]", "[", "*", "?", "^", ".", "é");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 8 }).map((a) => a.join("")),
        fc
          .array(fc.constantFrom("a", "b", "c", "-", "!", "]", "[", "^", ".", "é", "\n"), { maxLength: 8 })
          .map((a) => a.join("")),
        (pattern, name) => wildcardMatch(pattern, name) === referenceRegExp(pattern).test(name),
      ),
      { seed: 11, numRuns: 3000 },
    );
  });

  it("returns for 80 stars (the old matcher never did)", async () => {
    // Run in a worker so a regression hangs the worker, not the test runner.
    const pattern = "*".repeat(80).split("").join("x") + "zzz";
    const name = "x".repeat(200);
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       import("tsx/esm/api").then(({ register }) => { register(); return import(workerData.url); })
         .then((m) => parentPort.postMessage(m.wildcardMatch(workerData.pattern, workerData.name)),
         (e) => parentPort.postMessage(String(e)));`,
      {
        eval: true,
        workerData: {
          url: new URL("../../integrations/kit/wildcard.ts", import.meta.url).href,
          pattern,
          name,
        },
      },
    );
    const outcome = await new Promise<unknown>((resolve) => {
      const timer = setTimeout(() => resolve("still running after 10 s"), 10_000);
      worker.once("message", (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await worker.terminate();
    expect(outcome).toBe(false);
  });

  it("matches a reversed class as an empty class, not an error (defect 3)", () => {
    expect(wildcardMatch("[z-a]", "z")).toBe(false);
    expect(wildcardMatch("push[z-a]*", "push")).toBe(false);
  });

  it("bounds the patterns of one request", () => {
    expect(wildcardPatternsProblem("only_events", ["x".repeat(201)])).toBe(
      "only_events: a pattern may be at most 200 characters long",
    );
    expect(
      wildcardPatternsProblem(
        "only_events",
        Array.from({ length: 101 }, () => "a"),
      ),
    ).toBe("only_events may list at most 100 patterns");
    expect(wildcardPatternsProblem("only_events", ["push*", "x".repeat(200)])).toBe(undefined);
  });
});
