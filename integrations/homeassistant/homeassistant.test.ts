import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import homeassistant from "./index.js";

describeCases(homeassistant, new URL("./fixtures/cases", import.meta.url));

describe("homeassistant: payloads the recorded cases lack", () => {
  it("uses the notification's title (sent as `topic`) as the topic", () => {
    expectFixture(homeassistant, new URL(".", import.meta.url), "notification__with_title", {
      topic: "Weather forecast",
      body: "It will be 30 degrees Celsius out there today!",
    });
  });

  it("requires a message", () => {
    expect(() => dispatchPayload(homeassistant, undefined, { topic: "t" })).toThrow("Missing key 'message'");
  });
});
