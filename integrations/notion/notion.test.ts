import { describe, expect, it } from "@jest/globals";
import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { describeCases, describeSignature, dispatchPayload } from "../kit/testing.js";
import notion from "./index.js";

describeCases(notion, new URL("./fixtures/cases", import.meta.url));

describe("notion: events other than the verification", () => {
  it("answers a page event as unsupported, naming its type", () => {
    const event = {
      id: "367cba44-b6f3-4c92-81e7-6a2e9659efd4",
      timestamp: "2024-12-05T23:55:34.285Z",
      workspace_id: "13950b26-c203-4f3b-b97d-93ec06319565",
      workspace_name: "Quantify Labs",
      subscription_id: "29d75c0d-5546-4414-8459-7b7a92f1fc4b",
      integration_id: "0ef2e755-4912-8096-91c1-00376a88a5ca",
      type: "page.created",
      authors: [{ id: "c7c11cca-1d73-471d-9b6e-bdef51470190", type: "person" }],
      entity: { id: "153104cd-477e-809d-8dc4-ff2d96ae3090", type: "page" },
      data: { parent: { id: "13950b26-c203-4f3b-b97d-93ec06319565", type: "space" } },
    };
    expect(() => dispatchPayload(notion, undefined, event)).toThrow(UnsupportedWebhookEventTypeError);
  });
});

// Computed outside this code: printf '%s' BODY | openssl dgst -sha256 -hmac secret_abc
describeSignature(notion, {
  title: "X-Notion-Signature (HMAC-SHA256 of the body, keyed with the verification token)",
  header: "x-notion-signature",
  secret: "secret_abc",
  body: '{"type":"page.created","entity":{"id":"1","type":"page"}}',
  signature: "sha256=a064af261f4b9c11329c598fc0160abb0b2acd451269a9719602832fbe68908e",
  rejects: ["a064af261f4b9c11329c598fc0160abb0b2acd451269a9719602832fbe68908e", undefined],
});
