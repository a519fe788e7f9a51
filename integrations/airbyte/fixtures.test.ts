import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import airbyte from "./index.js";

const here = new URL(".", import.meta.url);

describe("airbyte: Zulip's other fixtures", () => {
  it("posts Airbyte's test notification for sync successes", () => {
    expectFixture(airbyte, here, "hello_world__success", {
      topic: "Airbyte notification",
      body: "Hello World! This is a test from Airbyte to try slack notification settings for sync successes.",
    });
  });
});
