import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, describeSignature, expectFixture } from "../kit/testing.js";
import transifex from "./index.js";

describeCases(transifex, new URL("./fixtures/cases", import.meta.url));

function post(params: Record<string, string>, body = ""): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(transifex, {
    headers: {},
    params: { stream: "transifex", ...params },
    rawBody: Buffer.from(body),
  });
}

const fields = { project: "website", resource: "home.json", language: "de" };

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("no error");
}

describe("transifex: events the recorded cases lack", () => {
  it("posts a resource fully reviewed", () => {
    expect(post({ ...fields, event: "review_completed", reviewed: "100" })).toMatchObject({
      kind: "messages",
      event: "review",
      messages: [{ topic: "website in de", body: "Resource home.json fully reviewed." }],
    });
  });

  it("posts a review from Transifex's JSON body", () => {
    expectFixture(transifex, new URL(".", import.meta.url), "review__completed", {
      topic: "website in de",
      body: "Resource home.json fully reviewed.",
    });
  });

  it("reads the fields from a JSON body when they are not parameters", () => {
    const body = JSON.stringify({ ...fields, event: "translation_completed", translated: 100 });
    expect(post({}, body)).toMatchObject({
      messages: [{ topic: "website in de", body: "Resource home.json fully translated." }],
    });
  });

  it("filters on translated / review", () => {
    expect(post({ ...fields, event: "review_completed", exclude_events: '["review"]' }).kind).toBe(
      "filtered",
    );
  });

  it("rejects other events and names a missing field", () => {
    expect(errorOf(() => post({ ...fields, event: "fillup_completed" }))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "fillup_completed",
    });
    expect(
      errorOf(() => post({ resource: "home.json", language: "de", event: "translation_completed" })),
    ).toMatchObject({
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'project' argument",
    });
  });
});

// Transifex v2: base64 HMAC-SHA256 of "POST", X-TX-Url, Date and the hex MD5 of the body; the expected value was computed with Python's hmac module.
describeSignature(transifex, {
  header: "x-tx-signature-v2",
  secret: "tx-secret",
  body: '{"project":"zulip","resource":"file","language":"de","event":"translation_completed","translated":100}',
  signature: "lPKZvUgtJ5biNk9zQyj9mq4xKsjGedfnPy9vCKG1Hj4=",
  headers: {
    "x-tx-url": "https://chat.example.com/api/v1/external/transifex?stream=t",
    date: "Tue, 24 Nov 2026 08:00:00 GMT",
  },
});
