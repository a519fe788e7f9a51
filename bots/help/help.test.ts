import { describe, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import help from "./index.js";

describe("help", () => {
  it("answers every message with where to find info on Zulip", () =>
    botTester(help).verifyDialog([
      ["", "Info on Zulip can be found here:\nhttps://github.com/zulip/zulip"],
      ["help", "Info on Zulip can be found here:\nhttps://github.com/zulip/zulip"],
      ["what can you do?", "Info on Zulip can be found here:\nhttps://github.com/zulip/zulip"],
    ]));
});
