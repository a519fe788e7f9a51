import { describe, expect, it } from "@jest/globals";
import Koa from "koa";
import { listen } from "../server/testing/listen.js";
import { ChatApiError } from "./errors.js";
import { TokenBucket, backoffMs, parsePacing, parseRetryAfter } from "./pacing.js";
import { ChatApiClient } from "./rest-handler.js";

/** A fake clock whose sleep advances time and records each wait. */
function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; waits: number[] } {
  let t = 0;
  const waits: number[] = [];
  return {
    now: () => t,
    sleep: (ms) => {
      waits.push(ms);
      t += ms;
      return Promise.resolve();
    },
    waits,
  };
}

describe("TokenBucket", () => {
  it("lets a burst of `capacity` through, then waits for each token instead of refusing", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 2, now: clock.now, sleep: clock.sleep });
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4, 5].map((n) => bucket.take().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(clock.waits).toEqual([500, 500]);
    expect(clock.now()).toBe(1000);
  });

  it("refills over time up to its capacity", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ capacity: 2, refillPerSecond: 1, now: clock.now, sleep: clock.sleep });
    await bucket.take();
    await bucket.take();
    expect(bucket.waitMs()).toBe(1000);
    await clock.sleep(10_000);
    await bucket.take();
    await bucket.take();
    expect(bucket.waitMs()).toBe(1000);
  });
});

describe("pacing helpers", () => {
  it("parses N/S rates", () => {
    expect(parsePacing("20/5")).toEqual({ capacity: 20, refillPerSecond: 4 });
    expect(parsePacing(" 1 / 0.5 ")).toEqual({ capacity: 1, refillPerSecond: 2 });
    expect(() => parsePacing("fast")).toThrow("Invalid rate 'fast': write messages/seconds, e.g. 20/5");
    expect(() => parsePacing("0/5")).toThrow("Invalid rate '0/5': write messages/seconds, e.g. 20/5");
  });

  it("reads Retry-After in seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:10 GMT", 4000)).toBe(6000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("backs off exponentially up to the cap", () => {
    const policy = { maxRetries: 9, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(policy, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});

describe("ChatApiClient retries", () => {
  it("waits for the Retry-After of a 429, then succeeds", async () => {
    let calls = 0;
    const app = new Koa();
    app.use((ctx) => {
      calls++;
      if (calls === 1) {
        ctx.status = 429;
        ctx.set("Retry-After", "7");
        ctx.body = { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT" };
        return;
      }
      ctx.body = { result: "success", msg: "", id: 42 };
    });
    const server = await listen(app);
    const clock = fakeClock();
    const events: string[] = [];
    try {
      const client = new ChatApiClient(
        { email: "a@b", key: "k", site: server.url },
        {
          sleep: clock.sleep,
          observer: {
            onError: (e) => events.push(`error ${e.status} ${e.code ?? ""}`),
            onRetry: (e) => events.push(`retry ${e.retry} after ${e.delayMs}`),
            onSuccess: (e) => events.push(`ok ${e.method} ${e.endpoint}`),
          },
        },
      );
      expect(await client.call("POST", "messages", { content: "x" })).toEqual({
        result: "success",
        msg: "",
        id: 42,
      });
      expect(clock.waits).toEqual([7000]);
      expect(events).toEqual(["error 429 RATE_LIMIT_HIT", "retry 1 after 7000", "ok POST messages"]);
    } finally {
      await server.close();
    }
  });

  it("retries an unreachable chat server with backoff, and gives up after the policy's retries", async () => {
    const app = new Koa();
    const server = await listen(app);
    const site = server.url;
    await server.close();
    const clock = fakeClock();
    const client = new ChatApiClient(
      { email: "a@b", key: "k", site },
      { sleep: clock.sleep, retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 250 } },
    );
    const err = await client.call("GET", "users/me").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatApiError);
    expect((err as ChatApiError).status).toBe(0);
    expect(clock.waits).toEqual([100, 200, 250]);
  });

  it("does not retry a client error", async () => {
    const app = new Koa();
    app.use((ctx) => {
      ctx.status = 400;
      ctx.body = { result: "error", msg: "Invalid stream", code: "BAD_REQUEST" };
    });
    const server = await listen(app);
    const clock = fakeClock();
    try {
      const client = new ChatApiClient({ email: "a@b", key: "k", site: server.url }, { sleep: clock.sleep });
      await expect(client.call("POST", "messages")).rejects.toEqual(
        new ChatApiError("Invalid stream", 400, "BAD_REQUEST"),
      );
      expect(clock.waits).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
