import { describe, expect, it } from "@jest/globals";
import { InvalidPayloadError } from "../../src/errors.js";
import { Wild } from "./wild.js";

describe("Wild.truthy", () => {
  it("is Python's truthiness of an optional value", () => {
    const falsy = [undefined, null, "", 0, false, [], {}];
    const truthy = ["x", 1, -0.5, true, [0], { a: null }];
    expect(falsy.map((v) => Wild.truthy(new Wild(v)))).toEqual(falsy.map(() => false));
    expect(truthy.map((v) => Wild.truthy(new Wild(v)))).toEqual(truthy.map(() => true));
    expect(Wild.truthy(undefined)).toBe(false);
  });
});

describe("Wild.strOrNull", () => {
  it("reads an optional string, null when absent or null", () => {
    const p = new Wild({ a: "text", b: null, c: 3 });
    expect([Wild.strOrNull(p.opt("a")), Wild.strOrNull(p.opt("b")), Wild.strOrNull(p.opt("zz"))]).toEqual([
      "text",
      null,
      null,
    ]);
    expect(() => Wild.strOrNull(p.opt("c"))).toThrow(new InvalidPayloadError("c is not a string", "c"));
  });
});
