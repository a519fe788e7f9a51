/**
 * The signature scheme kinds, each against a signature computed independently (Python's hmac /
 * hashlib, written out literally here) from the service's documented construction. GitHub's is
 * the example of GitHub's own documentation.
 */
import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { verifySignature } from "../../integrations/kit/signatures.js";
import type { SignatureScheme, SignedRequest } from "../../integrations/kit/index.js";
import hellosign from "../../integrations/hellosign/index.js";

function request(
  body: string,
  headers: Record<string, string>,
  url = "https://chat.example.com/",
): SignedRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { rawBody: Buffer.from(body, "utf8"), header: (name) => lower[name.toLowerCase()], url };
}

/** The wire body of the error, or "ok". */
function verdict(scheme: SignatureScheme, secret: string, req: SignedRequest, now = 0): unknown {
  try {
    verifySignature(scheme, secret, req, now);
    return "ok";
  } catch (err) {
    if (err instanceof JsonableError) return { status: err.httpStatus, ...err.toJSON() };
    throw err;
  }
}

const failed = {
  status: 401,
  result: "error",
  msg: "Webhook signature verification failed.",
  code: "INVALID_WEBHOOK_SIGNATURE",
};

describe("hmac (hex, prefixed): GitHub's documented example", () => {
  const scheme: SignatureScheme = {
    kind: "hmac",
    header: "X-Hub-Signature-256",
    algorithm: "sha256",
    prefix: "sha256=",
  };
  const secret = "It's a Secret to Everybody";
  const good = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  it("accepts the documented signature of 'Hello, World!'", () => {
    expect(verdict(scheme, secret, request("Hello, World!", { "X-Hub-Signature-256": good }))).toBe("ok");
  });

  it("rejects one changed byte of the body, a wrong prefix and a missing header", () => {
    expect(verdict(scheme, secret, request("Hello, World?", { "X-Hub-Signature-256": good }))).toEqual(
      failed,
    );
    expect(
      verdict(
        scheme,
        secret,
        request("Hello, World!", { "X-Hub-Signature-256": good.replace("sha256=", "sha1=") }),
      ),
    ).toEqual(failed);
    expect(verdict(scheme, secret, request("Hello, World!", {}))).toEqual({
      status: 401,
      result: "error",
      msg: "Missing the signature header 'X-Hub-Signature-256'",
      code: "INVALID_WEBHOOK_SIGNATURE",
    });
  });
});

describe("hmac with a signed timestamp: Slack's v0 scheme", () => {
  // Slack signs "v0:<X-Slack-Request-Timestamp>:<body>" with HMAC-SHA256, hex, prefixed "v0=".
  const scheme: SignatureScheme = {
    kind: "hmac",
    header: "X-Slack-Signature",
    algorithm: "sha256",
    prefix: "v0=",
    timestampHeader: "X-Slack-Request-Timestamp",
    toleranceSeconds: 300,
    signedContent: (req) =>
      `v0:${req.header("X-Slack-Request-Timestamp") ?? ""}:${req.rawBody.toString("utf8")}`,
  };
  const secret = "8f742231b10e8888abcd99yyyzzz85a5";
  const body =
    "token=xyzz0WbapA4vBCDEbOTwwaaqPyYHP&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
  const headers = {
    "X-Slack-Request-Timestamp": "1531420618",
    "X-Slack-Signature": "v0=2ca80e0b1c6f6bb643a50d0f0c675b93a4dbe1ca4d17066ea6c57b0b6fdf4369",
  };

  it("accepts the signature within the tolerance", () => {
    expect(verdict(scheme, secret, request(body, headers), 1531420618 + 299)).toBe("ok");
  });

  it("rejects a stale timestamp and a forged one", () => {
    expect(verdict(scheme, secret, request(body, headers), 1531420618 + 301)).toEqual({
      ...failed,
      msg: "Webhook signature timestamp is outside the tolerance.",
    });
    expect(
      verdict(
        scheme,
        secret,
        request(body, { ...headers, "X-Slack-Request-Timestamp": "1531420700" }),
        1531420700,
      ),
    ).toEqual(failed);
  });
});

describe("hmac, base64, over the body and the URL: Trello", () => {
  // base64(HMAC-SHA1(app secret, body + callback URL)).
  const scheme: SignatureScheme = {
    kind: "hmac",
    header: "X-Trello-Webhook",
    algorithm: "sha1",
    encoding: "base64",
    signedContent: (req) => Buffer.concat([req.rawBody, Buffer.from(req.url, "utf8")]),
  };
  const body = '{"action":{"type":"createCard"},"model":{"id":"4d5ea62fd76aa1136000000c"}}';
  const url = "https://chat.example.com/api/v1/external/trello?api_key=abc&stream=trello";

  it("accepts the signature of the body followed by the URL as called", () => {
    const req = request(body, { "X-Trello-Webhook": "Jd13+8U86aMSK4C/+ZTvE9l90kQ=" }, url);
    expect(verdict(scheme, "trello-app-secret", req)).toBe("ok");
  });

  it("rejects it for another URL", () => {
    const req = request(
      body,
      { "X-Trello-Webhook": "Jd13+8U86aMSK4C/+ZTvE9l90kQ=" },
      url.replace("https", "http"),
    );
    expect(verdict(scheme, "trello-app-secret", req)).toEqual(failed);
  });
});

describe("timestamped-hmac: Stripe's t=…,v1=…", () => {
  const scheme: SignatureScheme = {
    kind: "timestamped-hmac",
    header: "Stripe-Signature",
    toleranceSeconds: 300,
  };
  const body = '{"id":"evt_test_webhook","object":"event","type":"charge.succeeded"}';
  const v1 = "ff576a4f42c9b17b77798763f282050f4591e84d10883f8a598f5d3b38093d7f";

  it("accepts a header with a good v1 among several signatures", () => {
    const header = `t=1492774577,v1=${"0".repeat(64)},v1=${v1},v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39`;
    expect(
      verdict(scheme, "whsec_test_secret", request(body, { "Stripe-Signature": header }), 1492774577),
    ).toBe("ok");
  });

  it("rejects an old timestamp, a header without one, and a wrong secret", () => {
    const header = `t=1492774577,v1=${v1}`;
    expect(
      verdict(scheme, "whsec_test_secret", request(body, { "Stripe-Signature": header }), 1492774878),
    ).toEqual({
      ...failed,
      msg: "Webhook signature timestamp is outside the tolerance.",
    });
    expect(
      verdict(scheme, "whsec_test_secret", request(body, { "Stripe-Signature": `v1=${v1}` }), 1492774577),
    ).toEqual({
      ...failed,
      msg: "Webhook signature has no timestamp.",
    });
    expect(verdict(scheme, "whsec_other", request(body, { "Stripe-Signature": header }), 1492774577)).toEqual(
      failed,
    );
  });
});

describe("jws: Netlify's X-Webhook-Signature", () => {
  // HS256 JWS whose claims are {"iss":"netlify","sha256":<hex sha256 of the body>}.
  const scheme: SignatureScheme = { kind: "jws", header: "X-Webhook-Signature" };
  const body = '{"id":"5f1a","state":"ready","name":"my-site"}';
  const token =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJuZXRsaWZ5Iiwic2hhMjU2IjoiNDIzOTM0ZmEwMmUwNjgyNmNhNjg4ZDlkMDYxNWRjNDQ5ZTgxNjQ2NDgyMTVjMzVlZjk1YmJjNmJiZDQzYzMyNiJ9.RdcFTpNyoeZ-qQoJnNwgWkYLnp6b-LpmGArOT0IuCPc";

  it("accepts a token signed with the secret whose sha256 claim is the body's", () => {
    expect(verdict(scheme, "netlify-jws-secret", request(body, { "X-Webhook-Signature": token }))).toBe("ok");
  });

  it("rejects another body, another secret and a token that is not a JWS", () => {
    expect(
      verdict(scheme, "netlify-jws-secret", request(`${body} `, { "X-Webhook-Signature": token })),
    ).toEqual(failed);
    expect(verdict(scheme, "other", request(body, { "X-Webhook-Signature": token }))).toEqual(failed);
    expect(verdict(scheme, "netlify-jws-secret", request(body, { "X-Webhook-Signature": "abc" }))).toEqual({
      ...failed,
      msg: "Webhook signature is not a JWS.",
    });
  });
});

describe("hmac, base64, over a timestamp and the body: Zendesk", () => {
  // base64(HMAC-SHA256(secret, X-Zendesk-Webhook-Signature-Timestamp + body)).
  const scheme: SignatureScheme = {
    kind: "hmac",
    header: "X-Zendesk-Webhook-Signature",
    algorithm: "sha256",
    encoding: "base64",
    signedContent: (req) =>
      (req.header("X-Zendesk-Webhook-Signature-Timestamp") ?? "") + req.rawBody.toString("utf8"),
  };
  const body = '{"type":"zen:event-type:ticket.created"}';

  it("accepts the signature", () => {
    const req = request(body, {
      "X-Zendesk-Webhook-Signature": "+YoFdtmyQ+OripI1ig9Jh6Ft4in1ayEb3i9Q/nIo9QA=",
      "X-Zendesk-Webhook-Signature-Timestamp": "2026-11-24T07:00:00Z",
    });
    expect(verdict(scheme, "zendesk-secret", req)).toBe("ok");
  });
});

describe("token: GitLab's X-Gitlab-Token", () => {
  it("compares the shared token, with an optional prefix", () => {
    const plain: SignatureScheme = { kind: "token", header: "X-Gitlab-Token" };
    expect(verdict(plain, "s3cret", request("{}", { "X-Gitlab-Token": "s3cret" }))).toBe("ok");
    expect(verdict(plain, "s3cret", request("{}", { "X-Gitlab-Token": "s3cres" }))).toEqual(failed);
    const bearer: SignatureScheme = { kind: "token", header: "Authorization", prefix: "Bearer " };
    expect(verdict(bearer, "s3cret", request("{}", { Authorization: "Bearer s3cret" }))).toBe("ok");
    expect(verdict(bearer, "s3cret", request("{}", { Authorization: "s3cret" }))).toEqual(failed);
  });
});

describe("payload-hmac: Dropbox Sign's event_hash inside the payload", () => {
  // HMAC-SHA256 of "1348177752" + "signature_request_sent" keyed with this API key, computed with
  // Python's hmac module.
  const apiKey = "0f7d8c1e2b3a4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5";
  const good = "2bfb10930a9f9e3ff1db0412c91fc2e7433289a89a81ce200d5ef9f073591fd3";
  const scheme = hellosign.signature as SignatureScheme;

  /** A callback as Dropbox Sign posts it: the event as JSON in the `json` form field. */
  function callback(event: Record<string, string>): SignedRequest {
    const body = new URLSearchParams({ json: JSON.stringify({ event }) }).toString();
    const req = request(body, { "content-type": "application/x-www-form-urlencoded" });
    const form = Object.fromEntries(new URLSearchParams(body));
    return {
      ...req,
      payload: () =>
        hellosign.body.read({ rawBody: req.rawBody, contentType: undefined, form, params: form }),
    };
  }

  it("accepts the event_hash of event_time + event_type", () => {
    const event = { event_time: "1348177752", event_type: "signature_request_sent", event_hash: good };
    expect(verdict(scheme, apiKey, callback(event))).toBe("ok");
  });

  it("rejects another event type, another key and a missing hash", () => {
    const event = { event_time: "1348177752", event_type: "signature_request_signed", event_hash: good };
    expect(verdict(scheme, apiKey, callback(event))).toEqual(failed);
    expect(
      verdict(scheme, "another key", callback({ ...event, event_type: "signature_request_sent" })),
    ).toEqual(failed);
    expect(
      verdict(scheme, apiKey, callback({ event_time: "1348177752", event_type: "signature_request_sent" })),
    ).toEqual({ ...failed, msg: "Missing the signature field 'event.event_hash'" });
  });
});
