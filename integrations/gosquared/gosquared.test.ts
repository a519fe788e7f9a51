import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import gosquared from "./index.js";

describeCases(gosquared, new URL("./fixtures/cases", import.meta.url));

describe("gosquared: payloads the recorded cases lack", () => {
  it("does not post private chat messages", () => {
    expectFixture(gosquared, new URL(".", import.meta.url), "chat_message__private", null);
  });

  it("posts a chat message that does not say whether it is private", () => {
    const payload = {
      person: { status: "visitor", _anon: { name: "Ann" } },
      message: { session: { title: "Shop" }, content: "Hi" },
    };
    expect(onlyMessage(dispatchPayload(gosquared, undefined, payload))).toEqual({
      topic: "Live chat session - Shop",
      body: "The visitor **Ann** messaged:\n\n``` quote\nHi\n```",
    });
  });

  it("rejects a payload that is neither a traffic alert nor a chat message", () => {
    expect(() => dispatchPayload(gosquared, undefined, { hello: "world" })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "unknown_event" }),
    );
  });

  it("filters on the inferred event", () => {
    const payload = { concurrents: 3, siteDetails: { domain: "d", acct: "a" } };
    expect(dispatchPayload(gosquared, undefined, payload, { only_events: '["chat_message"]' }).kind).toBe(
      "filtered",
    );
  });
});
