/**
 * Defect 9 (issue 11), second half: the answers Node gives by itself (bad request lines or
 * headers, oversized URLs, OPTIONS) had empty bodies, not JSON. Also the slow-client limits:
 * a client too slow to send its headers gets a JSON 408, and the per-IP cap of requests without
 * credentials answers 429.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import net from "node:net";
import { defaultConfig } from "../../src/config.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// Real servers and scrypt on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    config: {
      limits: {
        ...defaultConfig().limits,
        headersTimeoutMs: 300,
        requestTimeoutMs: 3000,
        maxPublicRequestsPerIp: 2,
      },
    },
  });
});
afterAll(() => server.close());

/** Sends raw bytes (optionally pausing before closing) and returns everything the server answers. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.running.port, "127.0.0.1", () => socket.write(bytes));
    let out = "";
    socket.on("data", (d) => (out += d.toString("utf8")));
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

function statusAndBody(answer: string): [string, unknown] {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return [head.split("\r\n")[0] ?? "", JSON.parse(body)];
}

describe("defect 9: Node's own answers are JSON", () => {
  it("answers a malformed request line with a JSON 400", async () => {
    expect(statusAndBody(await rawExchange("BLAH\r\n\r\n"))).toEqual([
      "HTTP/1.1 400 Bad Request",
      { result: "error", msg: "Malformed HTTP request", code: "BAD_REQUEST" },
    ]);
  });

  it("answers a malformed header with a JSON 400", async () => {
    expect(statusAndBody(await rawExchange("GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"))).toEqual([
      "HTTP/1.1 400 Bad Request",
      { result: "error", msg: "Malformed HTTP request", code: "BAD_REQUEST" },
    ]);
  });

  it("answers an oversized URL with a JSON 431", async () => {
    const answer = await rawExchange(`GET /api/v1/users?x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(statusAndBody(answer)).toEqual([
      "HTTP/1.1 431 Request Header Fields Too Large",
      { result: "error", msg: "Request headers (or URL) too large", code: "REQUEST_TOO_LARGE" },
    ]);
  });

  it("answers OPTIONS with JSON and the Allow header", async () => {
    const res = await fetch(`${server.url}/api/v1/server_settings`, { method: "OPTIONS" });
    expect([res.status, res.headers.get("allow"), await res.json()]).toEqual([
      200,
      "HEAD, GET",
      { result: "success", msg: "" },
    ]);
  });
});

describe("slow clients", () => {
  it("answers a client that never finishes its headers with a JSON 408", async () => {
    const answer = await rawExchange("GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n");
    expect(statusAndBody(answer)).toEqual([
      "HTTP/1.1 408 Request Timeout",
      { result: "error", msg: "Request timeout", code: "BAD_REQUEST" },
    ]);
  });

  it("caps the requests without credentials one IP may have in flight", async () => {
    // Two slow uploads hold both slots; the third request is refused at once.
    const hold = (): net.Socket => {
      const s = net.connect(server.running.port, "127.0.0.1", () =>
        s.write(
          "POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nuser",
        ),
      );
      s.on("error", () => undefined);
      return s;
    };
    const held = [hold(), hold()];
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${server.url}/api/v1/server_settings`);
    expect([res.status, await res.json()]).toEqual([
      429,
      { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 1 },
    ]);
    for (const s of held) s.destroy();
  });
});
