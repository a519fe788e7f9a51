import { describe, expect, it } from "@jest/globals";
import { fixtureRequest } from "../kit/index.js";
import { dispatchWebhook } from "../kit/stages.js";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import ifttt from "./index.js";

const here = new URL(".", import.meta.url);
const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(ifttt, cases);

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return (err as { toJSON(): unknown }).toJSON();
  }
  return undefined;
}

describe("ifttt: payloads", () => {
  it("posts the applet's topic and content", () => {
    expectFixture(ifttt, here, "message__topic_and_content", {
      topic: "Email sent from email@email.com",
      body: "Email subject: Subject",
    });
  });

  it("answers Malformed payload for a topic that is not text", () => {
    expect(errorOf(() => dispatchWebhook(ifttt, fixtureRequest(ifttt, here, "message__dict_topic")))).toEqual(
      {
        result: "error",
        msg: "Malformed payload",
        code: "BAD_REQUEST",
      },
    );
  });

  it("answers as Zulip for a missing topic, a missing content and a dict content", () => {
    expect(errorOf(() => dispatchPayload(ifttt, undefined, { content: "c" }))).toEqual({
      result: "error",
      msg: "Topic can't be empty",
      code: "BAD_REQUEST",
    });
    expect(errorOf(() => dispatchPayload(ifttt, undefined, { topic: "t" }))).toEqual({
      result: "error",
      msg: "Content can't be empty",
      code: "BAD_REQUEST",
    });
    expect(errorOf(() => dispatchPayload(ifttt, undefined, { content: { wrong: "example" } }))).toEqual({
      result: "error",
      msg: "Malformed payload",
      code: "BAD_REQUEST",
    });
  });

  it("treats a null topic as absent and falls back to subject", () => {
    expect(dispatchPayload(ifttt, undefined, { topic: null, subject: "s", content: "c" })).toMatchObject({
      messages: [{ topic: "s", body: "c" }],
    });
  });
});
