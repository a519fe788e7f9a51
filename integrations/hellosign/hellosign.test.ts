import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import hellosign, { recipientsText } from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(hellosign, cases);

describe("hellosign: beyond the recorded cases", () => {
  it("lists every signer of a fully signed request", () => {
    expectFixture(hellosign, here, "signature_request__all_signed", {
      topic: "Offer letter",
      body: "The `Offer letter` document was just signed by Ann, Bob, and Cy.",
    });
  });

  it("acknowledges the callback test as Dropbox Sign requires, posting nothing", () => {
    expectFixture(hellosign, here, "account_event__callback_test", null);
    const outcome = dispatchWebhook(hellosign, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      params: {},
      form: { json: '{"event": {"event_type": "callback_test"}}' },
      rawBody: Buffer.from(""),
    });
    expect(outcome).toEqual({
      kind: "ignored",
      event: "account_event",
      reply: { msg: "Hello API Event Received" },
    });
  });

  it("acknowledges a signature request with the same text", () => {
    const outcome = dispatchWebhook(hellosign, {
      headers: { "content-type": "application/json" },
      params: {},
      rawBody: Buffer.from('{"signature_request": {"title": "NDA", "signatures": []}}'),
    });
    expect(outcome).toMatchObject({
      kind: "messages",
      reply: { msg: "Hello API Event Received" },
      messages: [{ topic: "NDA", body: "The `NDA` document ." }],
    });
  });

  it("reads the json field of a urlencoded body sent without a Content-Type", () => {
    const body = new URLSearchParams({ json: '{"signature_request": {"title": "Lease", "signatures": []}}' });
    const outcome = dispatchWebhook(hellosign, {
      headers: {},
      params: {},
      rawBody: Buffer.from(body.toString()),
    });
    expect(outcome).toMatchObject({ kind: "messages", messages: [{ topic: "Lease" }] });
  });

  it("joins names as Zulip does", () => {
    expect(recipientsText(["Jack"])).toBe("Jack");
    expect(recipientsText(["Jack", "Jill"])).toBe("Jack, and Jill");
  });
});
