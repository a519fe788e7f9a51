import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import netlify from "./index.js";

describeCases(netlify, new URL("./fixtures/cases", import.meta.url));

const dir = new URL(".", import.meta.url);

describe("netlify: events the recorded cases do not show", () => {
  it("reports a created deploy with its state", () => {
    expectFixture(netlify, dir, "deploy_created__ready", {
      topic: "master",
      body: "The build [objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com) on branch master is now ready.",
    });
  });

  it("reports a failed deploy with Netlify's error message", () => {
    expectFixture(netlify, dir, "deploy_failed__build_error", {
      topic: "master",
      body: "The build [objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com) on branch master Failed during stage 'building site': Build script returned non-zero exit code: 2",
    });
  });

  it("reports a locked deploy", () => {
    expectFixture(netlify, dir, "deploy_locked__locked", {
      topic: "master",
      body: "The build [objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com) on branch master is now locked.",
    });
  });
});

describe("netlify: behaviour", () => {
  it("rejects other events and requires the header", () => {
    expect(() => dispatchPayload(netlify, "deploy_request_pending", { branch: "main" })).toThrow(
      JsonableError,
    );
    expect(() => dispatchPayload(netlify, undefined, { branch: "main" })).toThrow(
      "Missing the HTTP event header 'X-Netlify-Event'",
    );
  });

  describe("X-Webhook-Signature (JWS)", () => {
    const body = '{"state":"ready"}';
    // An HS256 JWS made with the secret "It's a Secret to Everybody" (Python's hmac module), whose
    // payload is {"iss":"netlify","sha256":"<hex SHA-256 of the body>"}.
    const jws =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
      "eyJpc3MiOiJuZXRsaWZ5Iiwic2hhMjU2IjoiY2JhNDZjMWQ3NGRmY2IwNWU1ODRlMGZmYjJhYzFiZDM5ZDVkMGRlMGM3YTNmZDJhZTczNTRiNDQwMWY0OGJhNiJ9." +
      "p5ieGAHzQ7_mOgddFYSxU9cdD6EevSpr1OAmUftHxck";
    const check = (
      header: string | undefined,
      rawBody = body,
      secret = "It's a Secret to Everybody",
    ): string => {
      const scheme = netlify.signature;
      if (scheme === undefined) throw new Error("no signature scheme");
      try {
        verifySignature(
          scheme,
          secret,
          {
            rawBody: Buffer.from(rawBody),
            header: (name) => (name.toLowerCase() === "x-webhook-signature" ? header : undefined),
            url: "https://chat.example.com/api/v1/external/netlify",
          },
          1700000000,
        );
        return "ok";
      } catch (err) {
        return err instanceof JsonableError ? err.code : String(err);
      }
    };

    it("accepts the token's JWS over this body and rejects others", () => {
      expect(check(jws)).toBe("ok");
      expect(check(jws, '{"state":"error"}')).toBe("INVALID_WEBHOOK_SIGNATURE");
      expect(check(jws, body, "another secret")).toBe("INVALID_WEBHOOK_SIGNATURE");
      expect(check(undefined)).toBe("INVALID_WEBHOOK_SIGNATURE");
    });
  });
});
