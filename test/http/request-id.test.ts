/**
 * Request ids and W3C trace context: every request gets an `X-Request-Id` (the caller's or a new
 * one) echoed in the answer; log lines written while it is served carry it and the trace id; the
 * outgoing webhook a message causes passes both on (`X-Request-Id`, `traceparent`).
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, propagationHeaders, requestContext } from "../../src/lib/logger.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

async function server(): Promise<TestServer> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  return t;
}

function basic(u: TestUser): string {
  return "Basic " + Buffer.from(`${u.email}:${u.apiKey}`).toString("base64");
}

describe("X-Request-Id", () => {
  it("echoes the caller's id", async () => {
    const t = await server();
    const res = await fetch(`${t.url}/api/v1/server_settings`, {
      headers: { "X-Request-Id": "deploy-check-1" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("deploy-check-1");
  });

  it("makes one when the caller sends none or an unusable one", async () => {
    const t = await server();
    const none = await fetch(`${t.url}/api/v1/server_settings`);
    expect(none.headers.get("x-request-id")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const bad = await fetch(`${t.url}/api/v1/server_settings`, {
      headers: { "X-Request-Id": "has spaces\ttab" },
    });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const error = await fetch(`${t.url}/api/v1/no/such/route`, { headers: { "X-Request-Id": "on-a-404" } });
    expect(error.status).toBe(404);
    expect(error.headers.get("x-request-id")).toBe("on-a-404");
  });
});

describe("log lines and propagation", () => {
  it("adds request_id and trace_id to every line written inside a request's context", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (l) => lines.push(l), { format: "json" });
    requestContext.run({ requestId: "r-1", traceId: TRACE, spanId: CALLER_SPAN, sampled: true }, () => {
      logger.info("inside", { n: 1 });
      expect(propagationHeaders()).toEqual({
        "x-request-id": "r-1",
        traceparent: `00-${TRACE}-${CALLER_SPAN}-01`,
      });
    });
    // A trace its caller did not sample is passed on as not sampled (flags 00).
    requestContext.run({ requestId: "r-2", traceId: TRACE, spanId: CALLER_SPAN, sampled: false }, () => {
      expect(propagationHeaders()["traceparent"]).toBe(`00-${TRACE}-${CALLER_SPAN}-00`);
    });
    logger.info("outside");
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      { time: expect.any(String), level: "info", msg: "inside", request_id: "r-1", trace_id: TRACE, n: 1 },
      { time: expect.any(String), level: "info", msg: "outside" },
    ]);
    expect(propagationHeaders()).toEqual({});
  });

  it("passes the message request's id and trace to the outgoing webhook it causes", async () => {
    const t = await server();
    const received: http.IncomingHttpHeaders[] = [];
    const endpoint = http.createServer((req, res) => {
      received.push(req.headers);
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"response_not_required": true}');
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));
    const port = (endpoint.address() as AddressInfo).port;
    const bot = await t.api.post("/api/v1/bots", {
      as: t.users.iago,
      params: {
        full_name: "Traced Bot",
        short_name: "traced",
        bot_type: 3,
        payload_url: JSON.stringify(`http://127.0.0.1:${port}/`),
      },
    });
    expect(bot.status).toBe(200);

    /** Sends the bot a private message with these headers; resolves once its webhook went out. */
    const sendToBot = async (headers: Record<string, string>, content: string): Promise<void> => {
      const res = await fetch(`${t.url}/api/v1/messages`, {
        method: "POST",
        headers: {
          authorization: basic(t.users.hamlet),
          "content-type": "application/x-www-form-urlencoded",
          ...headers,
        },
        body: new URLSearchParams({
          type: "private",
          to: JSON.stringify([bot.body.email as string]),
          content,
        }),
      });
      expect(res.status).toBe(200);
      await t.running.services.outgoing.idle();
    };

    await sendToBot({ "X-Request-Id": "send-77", traceparent: `00-${TRACE}-${CALLER_SPAN}-01` }, "hello bot");
    expect(received).toHaveLength(1);
    expect(received[0]!["x-request-id"]).toBe("send-77");
    const traceparent = received[0]!["traceparent"] as string;
    expect(traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    // The chat server's own span is the parent now, not the caller's.
    expect(traceparent.split("-")[2]).not.toBe(CALLER_SPAN);

    // A caller that did not sample its trace: the webhook says so too (flags 00).
    await sendToBot({ traceparent: `00-${TRACE}-${CALLER_SPAN}-00` }, "again");
    expect(received).toHaveLength(2);
    expect(received[1]!["traceparent"]).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
  });
});
