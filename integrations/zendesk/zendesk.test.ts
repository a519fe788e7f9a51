import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import zendesk from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(zendesk, cases);

describe("zendesk: beyond the recorded cases", () => {
  it("reads a trigger that sends JSON", () => {
    expectFixture(zendesk, new URL(".", import.meta.url), "ticket__json_body", {
      topic: "#35436: Help, my printer is on fire!",
      body: "Ticket #35436 was solved by **Abhijeet** ([view](https://example.zendesk.com/agent/tickets/35436)).",
    });
  });

  it("reads the fields from the query string too", () => {
    const outcome = dispatchWebhook(zendesk, {
      headers: {},
      params: { ticket_id: "7", ticket_title: "Query ticket", message: "from the URL" },
      rawBody: Buffer.from(""),
      form: {},
    });
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [{ topic: "#7: Query ticket", body: "from the URL" }],
    });
  });

  it("names a missing field as Zulip does", () => {
    const caught = expectError(() =>
      dispatchPayload(zendesk, undefined, { ticket_id: "4", ticket_title: "No message" }),
    );
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "Missing 'message' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "message",
    });
  });
});

describe("zendesk: X-Zendesk-Webhook-Signature", () => {
  const body = '{"ticket_id":"4","ticket_title":"Test ticket","message":"some message"}';
  // base64 HMAC-SHA256 of timestamp + body with the signing secret "dGhpc19zZWNyZXQ", from openssl.
  const check = (signature: string, timestamp: string, secret = "dGhpc19zZWNyZXQ"): string => {
    const scheme = zendesk.signature;
    if (scheme === undefined) throw new Error("no scheme");
    const headers: Record<string, string> = {
      "x-zendesk-webhook-signature": signature,
      "x-zendesk-webhook-signature-timestamp": timestamp,
    };
    try {
      verifySignature(
        scheme,
        secret,
        {
          rawBody: Buffer.from(body),
          header: (n) => headers[n.toLowerCase()],
          url: "https://chat.example.com/api/v1/external/zendesk",
        },
        0,
      );
      return "ok";
    } catch (err) {
      return err instanceof JsonableError ? err.code : String(err);
    }
  };

  it("accepts the signing secret's signature over timestamp and body", () => {
    expect(check("OzCFf/B9MTcXgoXwU55pnQjep4CLhR7LAIRMghZgCJI=", "2021-06-10T18:49:38Z")).toBe("ok");
    expect(check("OzCFf/B9MTcXgoXwU55pnQjep4CLhR7LAIRMghZgCJI=", "2021-06-10T18:49:39Z")).toBe(
      "INVALID_WEBHOOK_SIGNATURE",
    );
    expect(check("OzCFf/B9MTcXgoXwU55pnQjep4CLhR7LAIRMghZgCJI=", "2021-06-10T18:49:38Z", "x")).toBe(
      "INVALID_WEBHOOK_SIGNATURE",
    );
  });
});

describe("zendesk: body", () => {
  it("reads a form body sent without a Content-Type", () => {
    const outcome = dispatchWebhook(zendesk, {
      headers: {},
      params: {},
      rawBody: Buffer.from("ticket_title=Form+ticket&ticket_id=9&message=hello%21"),
    });
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [{ topic: "#9: Form ticket", body: "hello!" }],
    });
  });
});
