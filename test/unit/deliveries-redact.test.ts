import { describe, expect, it } from "@jest/globals";
import { incomingEntry } from "../../src/domain/deliveries/entries.js";
import type { IncomingCapture } from "../../src/domain/deliveries/entries.js";
import {
  knownSecrets,
  mayHoldSecrets,
  redactBody,
  redactHeaders,
  redactUrl,
  redactValues,
} from "../../src/lib/redact.js";

function capture(body: string, contentType = "application/json"): IncomingCapture {
  return {
    botId: 1,
    createdMs: 0,
    integration: "github",
    event: "push",
    method: "post",
    url: "/api/v1/external/github?api_key=KEY&stream=general",
    headers: { "content-type": contentType, "x-hub-signature-256": "sha256=abc", "content-length": "2" },
    rawBody: Buffer.from(body, "utf8"),
    form: undefined,
    responseStatus: 200,
    responseBody: "{}",
    outcome: "sent",
    messageIds: [],
    error: undefined,
    replayOf: null,
  };
}

describe("delivery-log redaction", () => {
  it("drops api_key from a query and keeps the rest byte for byte", () => {
    expect(redactUrl("/api/v1/external/github?api_key=KEY&stream=a%20b&topic=x")).toBe(
      "/api/v1/external/github?stream=a+b&topic=x",
    );
    expect(redactUrl("/x?stream=general&api_key=KEY")).toBe("/x?stream=general");
    expect(redactUrl("/x?api_key=KEY")).toBe("/x");
    expect(redactUrl("/x?stream=general&topic=t")).toBe("/x?stream=general&topic=t");
  });

  it("finds credential names however they are written in a query", () => {
    expect(redactUrl("/x?API_KEY=KEY&stream=s")).toBe("/x?API_KEY=%5Bredacted%5D&stream=s");
    expect(redactUrl("/x?api%5Fkey=KEY&stream=s")).toBe("/x?stream=s");
    expect(redactUrl("/x?accessToken=T&stream=s")).toBe("/x?accessToken=%5Bredacted%5D&stream=s");
  });

  it("scans text for credential-named words in any case", () => {
    for (const word of ["apiKey", "API-KEY", "Secret", "X_TOKEN", "Password", "passwd", "HMAC", "Cookie"]) {
      expect(mayHoldSecrets(`{"a": {"${word}": 1}}`)).toBe(true);
    }
    expect(mayHoldSecrets('{"keys_url": "https://api.github.com/keys", "ref": "main"}')).toBe(false);
  });

  it("replaces credential fields of a JSON body, and keeps a body without any as sent", () => {
    expect(redactBody('{"a": [{"clientSecret": "s", "n": 1}], "token": 5}', "application/json")).toBe(
      '{"a":[{"clientSecret":"[redacted]","n":1}],"token":"[redacted]"}',
    );
    const plain = '{ "secretary": {"name": "x"} }';
    expect(redactBody(plain, "application/json")).toBe(plain);
  });
});

describe("incoming entries", () => {
  it("keep a body without credentials as the raw bytes, and redact one with them", () => {
    const clean = incomingEntry(capture('{"ref": "refs/heads/main", "é": "ü"}'), 1024);
    expect(clean.requestBody).toEqual(Buffer.from('{"ref": "refs/heads/main", "é": "ü"}', "utf8"));
    expect(clean.requestHeaders).toEqual({
      "content-type": "application/json",
      "x-hub-signature-256": "[redacted]",
    });
    expect(clean.url).toBe("/api/v1/external/github?stream=general");
    expect(clean.method).toBe("POST");

    const secret = incomingEntry(capture('{"token": "T", "ref": "main"}'), 1024);
    expect(secret.requestBody).toBe('{"token":"[redacted]","ref":"main"}');
  });

  it("redact a JSON key whose name is written with \\u escapes, and keep other escapes as sent", () => {
    const escaped = incomingEntry(capture('{"to\\u006Ben": "T", "api\\u005fkey": "K", "ref": "main"}'), 1024);
    expect(escaped.requestBody).toBe('{"token":"[redacted]","api_key":"[redacted]","ref":"main"}');
    const long = redactBody(`{"pad": "${"x".repeat(40)}", "s\\u0065cret": "S"}`, "application/json");
    expect(long).toBe(`{"pad":"${"x".repeat(40)}","secret":"[redacted]"}`);

    const accented = '{"msg": "caf\\u00e9 \\u2713 \\u003cb\\u003e"}';
    expect(incomingEntry(capture(accented), 1024).requestBody).toEqual(Buffer.from(accented, "utf8"));
  });

  it("cut a long body to whole characters as text, and replace NUL characters", () => {
    const long = incomingEntry(capture(`{"text": "${"é".repeat(20)}"}`), 16);
    expect(long.requestBody).toBe('{"text": "ééé');
    expect(long.bodyTruncated).toBe(true);
    const nul = incomingEntry(capture('{"a": "x\u0000y"}'), 1024);
    expect(nul.requestBody).toBe('{"a": "x\uFFFDy"}');
  });

  it("parse a form body to redact its fields", () => {
    const form = incomingEntry(
      capture("api_key=KEY&token=T&text=hi", "application/x-www-form-urlencoded"),
      1024,
    );
    expect(form.requestBody).toBe("token=%5Bredacted%5D&text=hi");
  });
});

describe("redaction by value (issue 23, finding 6: the delivery log redacts by header name)", () => {
  const secret = "whsec_known_bot_secret_0123";

  it("replaces credential headers whatever their name, and keeps the others", () => {
    const headers = redactHeaders(
      {
        "X-Private-Key": "k",
        "X-Auth": "opaque",
        "X-Session-Id": "s",
        "X-Author": "Hamlet",
        "X-Forwarded-Auth": "Bearer abcdefgh12345",
        "X-Upstream": "token 0123456789abcdef",
        "X-Note": `carried ${secret} along`,
        "X-GitHub-Event": "push",
      },
      knownSecrets([secret]),
    );
    expect(headers).toEqual({
      "x-private-key": "[redacted]",
      "x-auth": "[redacted]",
      "x-session-id": "[redacted]",
      "x-author": "Hamlet",
      "x-forwarded-auth": "[redacted]",
      "x-upstream": "[redacted]",
      "x-note": "carried [redacted] along",
      "x-github-event": "push",
    });
  });

  it("replaces the bot's known secrets and credential forms in any field of a body", () => {
    const body = JSON.stringify({
      note: `the secret is ${secret}`,
      pat: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      slack: "xoxb-123456789012-abcdefghij",
      stripe: "sk_live_0123456789abcdef",
      aws: "AKIAIOSFODNN7EXAMPLE",
      jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      clone: "https://x-access-token:ghs_abcdefghij@github.com/octo/hello.git",
      key: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    });
    const stored = incomingEntry({ ...capture(body), secrets: knownSecrets([secret]) }, 4096).requestBody;
    expect(JSON.parse(String(stored))).toEqual({
      note: "the secret is [redacted]",
      pat: "[redacted]",
      slack: "[redacted]",
      stripe: "[redacted]",
      aws: "[redacted]",
      jwt: "[redacted]",
      clone: "https://[redacted]@github.com/octo/hello.git",
      key: "[redacted]",
    });
  });

  it("keeps prose and ordinary ids as sent, byte for byte", () => {
    const body =
      '{"message": "Use basic authentication with a bearer of good news", "sha": "0123456789abcdef0123456789abcdef01234567", "url": "git@github.com:octo/hello.git"}';
    expect(incomingEntry(capture(body), 4096).requestBody).toEqual(Buffer.from(body, "utf8"));
    expect(redactValues(body, knownSecrets(["short"]))).toBe(body);
  });

  it("replaces a known secret in a form field and in the URL", () => {
    const entry = incomingEntry(
      {
        ...capture("a=1", "application/x-www-form-urlencoded"),
        url: `/api/v1/external/x?stream=s&topic=${secret}`,
        form: { comment: `see ${secret}` },
        secrets: knownSecrets([secret]),
      },
      4096,
    );
    expect(entry.url).toBe("/api/v1/external/x?stream=s&topic=[redacted]");
    expect(entry.requestForm).toEqual({ comment: "see [redacted]" });
  });
});

describe("user information in URLs", () => {
  it("replaces a URL's user and password wherever the text holds one, and leaves other URLs alone", () => {
    const cases: [string, string][] = [
      [
        "clone https://x-access-token:abc123@github.com/o/r.git",
        "clone https://[redacted]@github.com/o/r.git",
      ],
      [
        "git+ssh://me:pw@host and svn+https://a:b@c",
        "git+ssh://[redacted]@host and svn+https://[redacted]@c",
      ],
      ['{"u":"HTTPS://Alice:Secret@example.com/x"}', '{"u":"HTTPS://[redacted]@example.com/x"}'],
      ["x.http://u:p@h", "x.http://[redacted]@h"],
      ["a://b://c:d@e", "a://b://[redacted]@e"],
      // Not a scheme that starts a word, no password, or not a URL: as they are.
      ["foo_http://u:p@h", "foo_http://u:p@h"],
      ["1http://u:p@h", "1http://u:p@h"],
      ["https://user@host/x", "https://user@host/x"],
      ["mailto:user:x@example.com", "mailto:user:x@example.com"],
      ["://u:p@h", "://u:p@h"],
      ["https://u:p word@h", "https://u:p word@h"],
    ];
    for (const [text, expected] of cases) expect(redactValues(text, [])).toBe(expected);
  });

  it("finds what the regular expression of the rule finds, on generated texts", () => {
    // The rule, as a regular expression: a scheme starting a word, `://`, `user:password@`.
    const rule = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"']+:[^\s/@"']+@/gi;
    const atoms = ["a", "Z", "h", "1", "_", "+", ".", "-", ":", "/", "://", "@", " ", '"', "'"];
    const schemes = ["http", "Git+SSH", "x.y", "a-1", "_h", "1h", "+h", ""];
    const parts = ["u", "P4ss", "", "a b", "x/y", "q:r", "'", "@"];
    let seed = 2463534242;
    const next = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const pick = (from: readonly string[]): string => from[next(from.length)]!;
    let redacted = 0;
    for (let i = 0; i < 20_000; i++) {
      // Random characters and URL-like pieces (some of them with user information), in turn.
      let text = "";
      for (let segment = next(5); segment > 0; segment--) {
        if (next(2) === 0) {
          for (let n = next(5); n > 0; n--) text += pick(atoms);
        } else {
          text += `${pick(schemes)}://${pick(parts)}${next(3) === 0 ? "" : ":"}${pick(parts)}@${pick(parts)}`;
        }
      }
      const expected = text.replace(rule, "$1[redacted]@");
      if (expected !== text) redacted++;
      expect(redactValues(text, [])).toBe(expected);
    }
    // The generated texts exercise both outcomes.
    expect(redacted).toBeGreaterThan(100);
  });
});
