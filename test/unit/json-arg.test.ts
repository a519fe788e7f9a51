/**
 * `tryJson` (src/http/params.ts) skips `JSON.parse` for arguments that cannot be JSON (judged from
 * the first non-blank character): its answer must equal a plain try/catch around `JSON.parse` for
 * every string, JSON or not.
 */
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { mayBeJson, tryJson } from "../../src/http/params.js";

function reference(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Strings near the boundary: JSON texts, JSON with blanks around, and mangled JSON. */
const blanks = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2028"), maxLength: 3 });
const jsonText = fc.jsonValue().map((v) => JSON.stringify(v));
const nearJson = fc
  .tuple(
    blanks,
    fc.oneof(jsonText, fc.constantFrom("true", "false", "null", "tru", "nul", "-", "1e", "NaN")),
    blanks,
  )
  .map(([a, b, c]) => a + b + c);
const mangled = fc
  .tuple(jsonText, fc.nat(), fc.string({ maxLength: 2 }))
  .map(([t, at, ins]) => t.slice(0, at % (t.length + 1)) + ins + t.slice(at % (t.length + 1)));
const anyString = fc.oneof(fc.string(), fc.string({ unit: "binary" }), nearJson, mangled);

describe("tryJson", () => {
  it("answers exactly as try { JSON.parse } catch, for any string", () => {
    fc.assert(
      fc.property(anyString, (raw) => {
        expect(tryJson(raw)).toEqual(reference(raw));
      }),
      { numRuns: 5_000 },
    );
  });

  it("never rules out a string that JSON.parse accepts", () => {
    fc.assert(
      fc.property(anyString, (raw) => {
        if (reference(raw).ok) expect(mayBeJson(raw)).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  });

  it("rules out plain stream names without parsing, and keeps JSON forms", () => {
    expect(mayBeJson("general")).toBe(false);
    expect(mayBeJson("fixed")).toBe(false);
    expect(mayBeJson("Denmark office")).toBe(false);
    expect(tryJson("general")).toEqual({ ok: false });
    expect(tryJson(' "general" ')).toEqual({ ok: true, value: "general" });
    expect(tryJson("[12]")).toEqual({ ok: true, value: [12] });
    expect(tryJson("\n-3\t")).toEqual({ ok: true, value: -3 });
    expect(tryJson(" null ")).toEqual({ ok: true, value: null });
    expect(tryJson("falsey")).toEqual({ ok: false });
  });
});
