import { describe, expect, it } from "@jest/globals";
import { appendTo } from "../../src/lib/append-to.js";

describe("appendTo", () => {
  it("groups values under their keys in the order they came, a new list for each new key", () => {
    const groups = new Map<string, number[]>();
    for (const [key, value] of [
      ["a", 1],
      ["b", 2],
      ["a", 3],
      ["a", 4],
    ] as const) {
      appendTo(groups, key, value);
    }
    expect([...groups.entries()]).toEqual([
      ["a", [1, 3, 4]],
      ["b", [2]],
    ]);
  });

  it("adds to the list the map already holds, in place", () => {
    const list = [1];
    const groups = new Map([[7, list]]);
    appendTo(groups, 7, 2);
    expect(groups.get(7)).toBe(list);
    expect(list).toEqual([1, 2]);
  });
});
