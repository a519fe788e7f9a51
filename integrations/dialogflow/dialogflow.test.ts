import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import dialogflow from "./index.js";

describeCases(dialogflow, new URL("./fixtures/cases", import.meta.url));

describe("dialogflow: answers the recorded cases lack", () => {
  it("sends the fulfillment's speech privately to the user named by email", () => {
    expectFixture(
      dialogflow,
      new URL(".", import.meta.url),
      "answer__weather_app",
      {
        topic: "",
        body: "Today the weather in Delhi: Sunny, And the temperature is 65 F",
        directTo: ["aaron@zulip.com"],
      },
      { email: "aaron@zulip.com" },
    );
  });

  it("requires the email of the user to answer, as Zulip does", () => {
    const payload = { status: { code: 200 }, result: { fulfillment: { speech: "hi" } } };
    expect(() => dispatchPayload(dialogflow, undefined, payload)).toThrow(
      expect.objectContaining({ message: "Missing 'email' argument", code: "REQUEST_VARIABLE_MISSING" }),
    );
  });
});
