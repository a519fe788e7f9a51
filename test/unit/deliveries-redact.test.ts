import { describe, expect, it } from "@jest/globals";
import { incomingEntry } from "../../src/domain/deliveries/entries.js";
import type { IncomingCapture } from "../../src/domain/deliveries/entries.js";
import { mayHoldSecrets, redactBody, redactUrl } from "../../src/domain/deliveries/redact.js";

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
