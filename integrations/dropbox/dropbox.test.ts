import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import dropbox from "./index.js";

describeCases(dropbox, new URL("./fixtures/cases", import.meta.url));

const params = { stream: "test" };
const noHeaders = (): undefined => undefined;
const bot = { id: 7, email: "dropbox-bot@example.com", fullName: "Dropbox bot" };

describe("dropbox: the verification handshake", () => {
  it("echoes the challenge as plain text", () => {
    expect(
      dropbox.handshake?.({
        method: "GET",
        params: { ...params, challenge: "9B2SVL4orbt5DxLMqJHI6pOTipTqingt2YFMIO0g06E" },
        header: noHeaders,
        bot,
      }),
    ).toEqual({
      status: 200,
      contentType: "text/plain; charset=UTF-8",
      body: "9B2SVL4orbt5DxLMqJHI6pOTipTqingt2YFMIO0g06E",
      headers: { "X-Content-Type-Options": "nosniff" },
    });
  });

  it("answers a GET without a challenge as Zulip does", () => {
    expect(() => dropbox.handshake?.({ method: "GET", params, header: noHeaders, bot })).toThrow(
      expect.objectContaining({ message: "Missing 'challenge' argument", code: "REQUEST_VARIABLE_MISSING" }),
    );
  });

  it("lets notifications (POST) through to the handler", () => {
    expect(dropbox.handshake?.({ method: "POST", params, header: noHeaders, bot })).toBeUndefined();
  });
});

describe("dropbox: notifications", () => {
  it("posts a list_folder notification", () => {
    expectFixture(dropbox, new URL(".", import.meta.url), "file_updated__list_folder", {
      topic: "Dropbox",
      body: "File has been updated on Dropbox!",
    });
  });
});

describe("dropbox: X-Dropbox-Signature", () => {
  // HMAC-SHA256 (hex) of this exact body with the app secret "my-dropbox-app-secret".
  const body = Buffer.from(
    '{"list_folder":{"accounts":["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"]},"delta":{"users":[12345678]}}',
  );
  const signature = "7488041d3bb79536fa60e4582411b8437386584b874ccb04e51c75c6cc647f62";
  const scheme = dropbox.signature;
  if (scheme === undefined) throw new Error("dropbox declares a signature");
  const request = (value: string | undefined) => ({
    rawBody: body,
    url: "https://chat.example.com/api/v1/external/dropbox?api_key=k&stream=test",
    header: (name: string) => (name.toLowerCase() === "x-dropbox-signature" ? value : undefined),
  });

  it("accepts Dropbox's signature of the raw body", () => {
    expect(() => verifySignature(scheme, "my-dropbox-app-secret", request(signature), 0)).not.toThrow();
  });

  it("rejects another secret, a changed body and a missing header", () => {
    expect(() => verifySignature(scheme, "another-secret", request(signature), 0)).toThrow(
      expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }),
    );
    expect(() =>
      verifySignature(
        scheme,
        "my-dropbox-app-secret",
        { ...request(signature), rawBody: Buffer.from("{}") },
        0,
      ),
    ).toThrow(expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" }));
    expect(() => verifySignature(scheme, "my-dropbox-app-secret", request(undefined), 0)).toThrow(
      "Missing the signature header 'X-Dropbox-Signature'",
    );
  });
});
