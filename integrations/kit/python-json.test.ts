import { describe, expect, it } from "@jest/globals";
import { isoToSeconds, normalizeBody, truncateTopic, unixToIso } from "./message-text.js";
import { parsePythonJson, pythonFloatRepr, pythonJsonDumps, pythonRepr, pythonStr } from "./python-json.js";

describe("pythonFloatRepr", () => {
  it("prints floats as Python's repr does", () => {
    expect([1e16, 1e15, 0.0001, 0.00001, 100, -0.5, 1e22, 0.1].map(pythonFloatRepr)).toEqual([
      "1e+16",
      "1000000000000000.0",
      "0.0001",
      "1e-05",
      "100.0",
      "-0.5",
      "1e+22",
      "0.1",
    ]);
  });
});

describe("pythonJsonDumps(parsePythonJson(text), 2)", () => {
  it("matches json.dumps(json.loads(text), indent=2)", () => {
    const text =
      '{"a":[1,2.0,{"b":"\u00e9\ud83d\ude00\\u007f"}],"c":{},"d":[],"e":12345678901234567890123,"f":1E5,"g":-0,"a":3}';
    expect(pythonJsonDumps(parsePythonJson(text), 2)).toBe(
      '{\n  "a": 3,\n  "c": {},\n  "d": [],\n  "e": 12345678901234567890123,\n  "f": 100000.0,\n  "g": 0\n}',
    );
    expect(pythonJsonDumps(parsePythonJson('["\u00e9\ud83d\ude00\\u007f\\n", NaN, -Infinity]'), 2)).toBe(
      '[\n  "\\u00e9\\ud83d\\ude00\\u007f\\n",\n  NaN,\n  -Infinity\n]',
    );
  });

  it("rejects text that is not JSON", () => {
    expect(() => parsePythonJson("{'a': 1}")).toThrow("Invalid JSON");
  });
});

describe("pythonStr and pythonRepr", () => {
  it("print scalars as Python's str() does", () => {
    expect([null, undefined, true, false, 2, 2.5, "tab\there"].map(pythonStr)).toEqual([
      "None",
      "None",
      "True",
      "False",
      "2",
      "2.5",
      "tab\there",
    ]);
  });

  it("quote strings inside containers as Python's repr() does", () => {
    expect(pythonRepr(["it's", 'say "hi"', "both ' \"", "tab\t", "\u0001"])).toBe(
      `["it's", 'say "hi"', 'both \\' "', 'tab\\t', '\\x01']`,
    );
    expect(pythonStr({ a: "x", b: [1, false, null] })).toBe("{'a': 'x', 'b': [1, False, None]}");
  });

  it("keep what parsePythonJson kept: floats, big integers, key order", () => {
    const parsed = parsePythonJson('{"b": 1.0, "a": [1e-05, null, true], "c": 12345678901234567890}');
    expect(pythonStr(parsed)).toBe("{'b': 1.0, 'a': [1e-05, None, True], 'c': 12345678901234567890}");
  });
});

describe("message-text", () => {
  it("truncates topics to 60 characters and strips bodies as Zulip does", () => {
    expect(truncateTopic("y".repeat(61))).toBe(`${"y".repeat(57)}...`);
    expect(truncateTopic("x".repeat(60))).toBe("x".repeat(60));
    expect(normalizeBody("\n\n  body \n\t ")).toBe("  body");
  });

  it("formats times for <time:…> mentions", () => {
    expect(isoToSeconds("2022-08-31T05:54:04.52289368Z")).toBe("2022-08-31T05:54:04+00:00");
    expect(isoToSeconds("2021-10-12T09:56:03.157076+02:00")).toBe("2021-10-12T09:56:03+02:00");
    expect(unixToIso(1655945306)).toBe("2022-06-23T00:48:26+00:00");
  });
});
