import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases } from "../kit/testing.js";
import json from "./index.js";

describeCases(json, new URL("./fixtures/cases", import.meta.url));

function post(body: string): unknown {
  const outcome = dispatchWebhook(json, {
    headers: { "content-type": "application/json" },
    params: { stream: "json" },
    rawBody: Buffer.from(body, "utf8"),
  });
  return outcome.kind === "messages" ? outcome.messages : outcome.kind;
}

describe("json: Python's json.dumps(payload, indent=2)", () => {
  it("keeps floats written with .0 and escapes non-ASCII as \\uXXXX", () => {
    expect(post('{"price": 10.0, "name": "caf\u00e9 \ud83d\ude00", "big": 12345678901234567890}')).toEqual([
      {
        topic: "JSON",
        body:
          "```json\n{\n" +
          '  "price": 10.0,\n' +
          '  "name": "caf\\u00e9 \\ud83d\\ude00",\n' +
          '  "big": 12345678901234567890\n' +
          "}\n```",
      },
    ]);
  });

  it("prints exponents, empty containers and nested lists as Python does", () => {
    expect(post('{"a": 1e-5, "b": 1E16, "c": [], "d": {}, "e": [1, [true, null]]}')).toEqual([
      {
        topic: "JSON",
        body:
          "```json\n{\n" +
          '  "a": 1e-05,\n' +
          '  "b": 1e+16,\n' +
          '  "c": [],\n' +
          '  "d": {},\n' +
          '  "e": [\n' +
          "    1,\n" +
          "    [\n" +
          "      true,\n" +
          "      null\n" +
          "    ]\n" +
          "  ]\n" +
          "}\n```",
      },
    ]);
  });

  it("truncates a body longer than 10000 characters as Zulip does", () => {
    // 18 characters of fence and indentation, 9962 of the value, then the marker: 10000 in all.
    expect(post(JSON.stringify({ a: "x".repeat(10000) }))).toEqual([
      { topic: "JSON", body: '```json\n{\n  "a": "' + "x".repeat(9962) + "\n[message truncated]" },
    ]);
  });

  it("rejects a payload that is not a JSON object", () => {
    expect(() => post("[1, 2]")).toThrow("payload is not a dict");
  });
});
