import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import flock from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(flock, new URL("./fixtures/cases", import.meta.url));

describe("flock: messages the recorded cases lack", () => {
  it("posts the notification line of a to-do (empty text)", () => {
    expectFixture(flock, here, "message__todo", {
      topic: "Flock notifications",
      body: "Rishabh rawat added a to-do in New List 1 list",
    });
  });

  it("posts the notification line of a pinned item", () => {
    expectFixture(flock, here, "message__pinned", {
      topic: "Flock notifications",
      body: "Rishabh rawat pinned an item to the conversation",
    });
  });

  it("falls back to the notification when text is absent, and names a payload with neither", () => {
    expect(dispatchPayload(flock, undefined, { notification: "n" }).kind).toBe("messages");
    expect(() => dispatchPayload(flock, undefined, { text: "" })).toThrow("Missing key 'notification'");
  });
});
