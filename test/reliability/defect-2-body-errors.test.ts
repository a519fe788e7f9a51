/**
 * Defects 2 and 3 (issue 11): a malformed multipart body was a 500 on every route, before
 * authentication, with a stack logged; a bad character class or a pathological pattern in a
 * webhook's only_events was a 500 or froze the server.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// Real servers and scrypt on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: (await res.json()) as unknown };
}

const HELLO = JSON.stringify({
  featured_title: "Marilyn Monroe",
  featured_url: "https://en.wikipedia.org/wiki/Marilyn_Monroe",
});

describe("defect 2: body-parser errors are 400s, before authentication", () => {
  it("answers a multipart body without a boundary with 400, not 500 (the probe's curl)", async () => {
    expect(await raw("POST", "/api/v1/users/me", { "content-type": "multipart/form-data" }, "a=b")).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed multipart body", code: "BAD_REQUEST" },
    });
  });

  it("answers a truncated multipart body with 400", async () => {
    const body = '--xyz\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello';
    expect(
      await raw("POST", "/api/v1/messages", { "content-type": "multipart/form-data; boundary=xyz" }, body),
    ).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed multipart body", code: "BAD_REQUEST" },
    });
  });

  it("answers a JSON body that is not JSON with 400 INVALID_JSON", async () => {
    expect(await raw("POST", "/api/v1/messages", { "content-type": "application/json" }, "{bad")).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed JSON", code: "INVALID_JSON" },
    });
  });
});

describe("defect 1/3: webhook event filters over HTTP", () => {
  const key = (): string => server.users.webhookBot.apiKey;
  const hook = (filters: string) =>
    raw(
      "POST",
      `/api/v1/external/helloworld?api_key=${key()}&stream=general&only_events=${encodeURIComponent(filters)}`,
      { "content-type": "application/json" },
      HELLO,
    );

  it("answers only_events with 80 stars at once (filtered out, not a frozen server)", async () => {
    const res = await hook(JSON.stringify(["*".repeat(80) + "zzz"]));
    expect(res).toEqual({ status: 200, body: { result: "success", msg: "" } });
  });

  it('answers only_events=["[z-a]"] as Python\'s fnmatch would (matches nothing), not 500', async () => {
    const res = await hook(JSON.stringify(["[z-a]"]));
    expect(res).toEqual({ status: 200, body: { result: "success", msg: "" } });
  });

  it("refuses more than 100 patterns with 400", async () => {
    const res = await hook(JSON.stringify(Array.from({ length: 101 }, (_, i) => `e${i}`)));
    expect(res).toEqual({
      status: 400,
      body: { result: "error", msg: "only_events may list at most 100 patterns", code: "BAD_REQUEST" },
    });
  });
});
