import { describe, expect, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import incrementor from "./index.js";

describe("incrementor", () => {
  it("counts mentions in one message it keeps editing", () =>
    botTester(incrementor).verifyDialog([
      ["", "1"],
      ["", "2"],
      ["anything", "3"],
    ]));

  it("posts the first count, then edits that message", async () => {
    const tester = botTester(incrementor);
    expect(await tester.send("")).toEqual([
      {
        kind: "send",
        id: 1001,
        message: { type: "stream", to: "test stream", topic: "test topic", content: "1" },
      },
    ]);
    expect(await tester.send("")).toEqual([{ kind: "update", update: { message_id: 1001, content: "2" } }]);
    expect([...tester.handler.storage.data]).toEqual([
      ["number", "2"],
      ["message_id", "1001"],
    ]);
  });

  it("continues from the count in storage", async () => {
    const tester = botTester(incrementor);
    await tester.handler.storage.put("number", 41);
    await tester.handler.storage.put("message_id", 7);
    expect(await tester.send("")).toEqual([{ kind: "update", update: { message_id: 7, content: "42" } }]);
  });
});
