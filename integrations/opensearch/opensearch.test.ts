import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/stages.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import opensearch from "./index.js";

describeCases(opensearch, new URL("./fixtures/cases", import.meta.url));

function post(text: string): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(opensearch, {
    headers: { "content-type": "application/json" },
    params: { stream: "opensearch" },
    rawBody: Buffer.from(text, "utf8"),
  });
}

describe("opensearch: message templates the recorded cases lack", () => {
  it("takes the topic from a first line `topic: …`", () => {
    expectFixture(opensearch, new URL(".", import.meta.url), "alert__topic_line", {
      topic: "Resource Monitor",
      body: "Alert of severity **3** triggered by **Insufficient memory**.",
    });
  });

  it("keeps a one-line `topic:` text as the body (no line break after it)", () => {
    expect(post("topic: lonely")).toMatchObject({
      kind: "messages",
      messages: [{ topic: "OpenSearch alerts", body: "topic: lonely" }],
    });
  });

  it("reads the body as text even when it is not JSON whatever the Content-Type says", () => {
    expect(post("{not json")).toMatchObject({
      messages: [{ topic: "OpenSearch alerts", body: "{not json" }],
    });
  });
});
