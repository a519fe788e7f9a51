import { describe, expect, it } from "@jest/globals";
import { BOTS } from "../bots/index.js";
import { BUNDLED_BOTS } from "../web/src/lib/bundled-bots.js";

describe("BUNDLED_BOTS", () => {
  it("names exactly the bots of the bot server's registry", () => {
    expect([...BUNDLED_BOTS].sort()).toEqual(BOTS.map((b) => b.name).sort());
  });
});
