import { describe, expect, it } from "@jest/globals";
import { fixtureRequest } from "../kit/index.js";
import { dispatchWebhook } from "../kit/stages.js";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import updown, { durationText } from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(updown, new URL("./fixtures/cases", import.meta.url));

describe("updown: events the recorded cases lack", () => {
  it("posts a check going down with its error and start time", () => {
    expectFixture(updown, here, "down__one_event", {
      topic: "https://updown.io",
      body: "Service is `down`. It returned a 500 error at <time:2016-02-07T13:11:43+00:00>.",
    });
  });

  it("posts one message per event of a batch", () => {
    expect(dispatchWebhook(updown, fixtureRequest(updown, here, "down__multiple_events"))).toMatchObject({
      kind: "messages",
      messages: [
        {
          topic: "https://updown.io",
          body: "Service is `down`. It returned a 500 error at <time:2016-02-07T13:11:43+00:00>.",
        },
        { topic: "https://updown.io", body: "Service is `up` again after 1 second." },
      ],
    });
  });

  it("applies only_events to each event of a batch", () => {
    const outcome = dispatchWebhook(
      updown,
      fixtureRequest(updown, here, "down__multiple_events", { only_events: '["up"]' }),
    );
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [{ topic: "https://updown.io", body: "Service is `up` again after 1 second." }],
    });
  });

  it("rejects a batch with an event it does not know", () => {
    expect(() => dispatchPayload(updown, undefined, [{ event: "unknown", check: { url: "u" } }])).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "unknown" }),
    );
  });

  it("rejects Zulip's unknown_event payload, which Zulip ignores (this project's spec: unsupported)", () => {
    expect(() => dispatchWebhook(updown, fixtureRequest(updown, here, "unknown__event"))).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "unknown" }),
    );
  });

  it("spells durations as Zulip does", () => {
    expect(durationText(265)).toBe("4 minutes 25 seconds");
    expect(durationText(90061)).toBe("1 day 1 hour 1 minute 1 second");
    expect(durationText(7200)).toBe("2 hours");
  });
});
