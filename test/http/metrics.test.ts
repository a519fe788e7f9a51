/**
 * GET /metrics on the chat server: Prometheus text for an operator (a loopback client, or the
 * bearer token when one is configured), and each metric family after a webhook and a send.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { isLoopback } from "../../src/lib/http-metrics.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const hello = JSON.stringify({
  featured_title: "Marilyn Monroe",
  featured_url: "https://en.wikipedia.org/wiki/Marilyn_Monroe",
});

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

/** The value of one sample line, `name{labels} value` (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("answers a loopback client with Prometheus text", async () => {
    t = await startTestServer();
    const res = await scrape(t.url);
    expect(res.status).toBe(200);
    expect(res.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.text).toContain("# TYPE chat_http_requests_total counter");
  });

  it("refuses a wrong bearer token when a token is configured, and accepts the right one", async () => {
    t = await startTestServer({ config: { metricsToken: "s3cret-metrics-token" } });
    const wrong = await scrape(t.url, { authorization: "Bearer nope" });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.text)).toEqual({
      result: "error",
      msg: "Metrics are served to loopback clients, or with the metrics token",
      code: "BAD_REQUEST",
    });
    const right = await scrape(t.url, { authorization: "Bearer s3cret-metrics-token" });
    expect(right.status).toBe(200);
  });

  it("has every family after a webhook and a send", async () => {
    t = await startTestServer();
    const sub = await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: {
        subscriptions: [{ name: "test" }],
        principals: [t.users.webhookBot.email, t.users.iago.email],
      },
    });
    expect(sub.status).toBe(200);
    const hook = await fetch(
      `${t.url}/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}&stream=test`,
      { method: "POST", headers: { "content-type": "application/json" }, body: hello },
    );
    expect(hook.status).toBe(200);
    const unsupported = await fetch(`${t.url}/api/v1/external/github?api_key=${t.users.webhookBot.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-GitHub-Event": "no_such_event" },
      body: "{}",
    });
    expect(unsupported.status).toBe(200);
    const send = await t.api.post("/api/v1/messages", {
      as: t.users.iago,
      params: { type: "stream", to: "test", topic: "metrics", content: "hello" },
    });
    expect(send.status).toBe(200);
    const reg = await t.api.post("/api/v1/register", {
      as: t.users.iago,
      params: { event_types: ["message"] },
    });
    expect(reg.status).toBe(200);

    const { text } = await scrape(t.url);
    expect(sample(text, 'chat_webhooks_total{integration="helloworld",outcome="success"}')).toBe(1);
    expect(
      sample(text, 'chat_webhooks_total{integration="github",outcome="UNSUPPORTED_WEBHOOK_EVENT_TYPE"}'),
    ).toBe(1);
    expect(
      sample(text, 'chat_http_requests_total{method="POST",route="/api/v1/messages",status="200"}'),
    ).toBe(1);
    expect(
      sample(text, 'chat_http_request_duration_seconds_count{method="POST",route="/api/v1/messages"}'),
    ).toBe(1);
    expect(sample(text, "chat_event_queues")).toBe(1);
    expect(sample(text, "chat_long_polls_waiting")).toBe(0);
    expect(text).toContain("# TYPE chat_outgoing_webhook_jobs gauge");
    expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
    expect(text).toContain("# TYPE process_resident_memory_bytes gauge");
  });
});

describe("isLoopback", () => {
  it("accepts IPv4 and IPv6 loopback addresses only", () => {
    expect(["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "fe80::1", undefined].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
