import { describe, expect, it } from "@jest/globals";
import { parseSearch } from "../src/lib/chat-store.js";
import { hashDecode, narrowHash, narrowOfLink, parseNarrowHash } from "../src/lib/narrow-hash.js";

describe("parseSearch", () => {
  it("turns Zulip's search syntax into narrow operators, words last", () => {
    expect(parseSearch('stream:Denmark topic:"castle walls" -is:starred ghost night')).toEqual([
      { operator: "stream", operand: "Denmark" },
      { operator: "topic", operand: "castle walls" },
      { operator: "is", operand: "starred", negated: true },
      { operator: "search", operand: "ghost night" },
    ]);
    expect(parseSearch("   ")).toEqual([]);
  });
});

describe("narrow hashes", () => {
  it("reads Zulip's narrow URLs: id-name stream parts, .-encoded topics, channel and is:", () => {
    expect(parseNarrowHash("#narrow/stream/3-Denmark/topic/castle.20walls")).toEqual({
      streamId: 3,
      topic: "castle walls",
    });
    expect(parseNarrowHash("#narrow/channel/12-general")).toEqual({ streamId: 12 });
    expect(parseNarrowHash("#narrow/is/private")).toEqual({ private: true });
    expect(parseNarrowHash("#narrow/is/starred")).toEqual({ is: "starred" });
    expect(parseNarrowHash("#narrow/search/needle.20hay")).toEqual({ search: "needle hay" });
    expect(parseNarrowHash("#settings")).toBeUndefined();
    expect(parseNarrowHash("#narrow/dm/9-King-Hamlet")).toEqual({ dm: [9] });
    expect(parseNarrowHash("#narrow/dm/8,9-group")).toEqual({ dm: [8, 9] });
    expect(parseNarrowHash("#narrow/pm-with/hamlet.40zulip.2Ecom")).toEqual({ private: true });
    expect(parseNarrowHash("#recent")).toEqual({ view: "recent" });
    expect(parseNarrowHash("#recent_topics")).toEqual({ view: "recent" });
    expect(parseNarrowHash("#drafts")).toEqual({ view: "drafts" });
    expect(hashDecode("a.2Eb")).toBe("a.b");
  });

  it("writes hashes the app reads back", () => {
    for (const n of [
      {},
      { streamId: 3 },
      { streamId: 3, topic: "a.b c" },
      { private: true },
      { search: "x y" },
      { dm: [4, 9] },
      { view: "recent" as const },
      { view: "drafts" as const },
    ]) {
      expect(parseNarrowHash(narrowHash(n)) ?? {}).toEqual(n);
    }
  });

  it("opens only this site's narrow links in the app", () => {
    const origin = "http://chat.example";
    expect(narrowOfLink("/#narrow/stream/3-Denmark/topic/castle", origin)).toEqual({
      streamId: 3,
      topic: "castle",
    });
    expect(narrowOfLink("https://elsewhere.example/#narrow/stream/3", origin)).toBeUndefined();
    expect(narrowOfLink("/user_uploads/1/a.png", origin)).toBeUndefined();
  });
});
