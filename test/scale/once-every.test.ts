/** The "once per interval" gate behind owner notifications: in memory, and in Redis across processes. */
import { afterAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { memoryOnceEvery, redisOnceEvery } from "../../src/infra/once-every.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";

const redisUp = await redisAvailable();
if (!redisUp) process.stdout.write("SKIPPED once-every on Redis: no Redis at 127.0.0.1:6379\n");

describe("memoryOnceEvery", () => {
  it("grants a key once per interval", async () => {
    const gate = memoryOnceEvery();
    const t = 1_000_000;
    expect([
      await gate.acquire("7:unsupported", t, 60_000),
      await gate.acquire("7:unsupported", t + 59_999, 60_000),
      await gate.acquire("7:bad-json", t + 1, 60_000),
      await gate.acquire("7:unsupported", t + 60_000, 60_000),
    ]).toEqual([true, false, true, true]);
  });
});

(redisUp ? describe : describe.skip)("redisOnceEvery", () => {
  const prefix = freshRedisPrefix();
  const a = new Redis(REDIS_URL);
  const b = new Redis(REDIS_URL);
  afterAll(async () => {
    await dropRedisPrefix(a, prefix);
    a.disconnect();
    b.disconnect();
  });

  it("grants a key to exactly one of two processes asking at once, again after the interval", async () => {
    const [onA, onB] = [redisOnceEvery(a, prefix), redisOnceEvery(b, prefix)];
    const first = await Promise.all([
      onA.acquire("7:unsupported", 0, 300),
      onB.acquire("7:unsupported", 0, 300),
    ]);
    expect(first.filter(Boolean)).toEqual([true]);
    expect(await onA.acquire("7:bad-json", 0, 300)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await onB.acquire("7:unsupported", 0, 300)).toBe(true);
  });
});
