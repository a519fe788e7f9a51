/**
 * The Redis command timeout counts a command as unanswered only when no answer came: an answer that
 * arrived while the process was stalled (a long synchronous task, or the process not scheduled on a
 * loaded machine) is read, not discarded. ioredis's own `commandTimeout` fired before the sockets
 * were read, so a stall longer than the timeout made a healthy Redis look lost (a fan-out then
 * reset its users' event queues: the flaky "sender's own queue drained empty" on a busy machine).
 * Skipped where no Redis runs.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "@jest/globals";
import { RedisCommandTimeoutError, connectRedis } from "../../src/infra/redis/connection.js";
import type { RedisBackend } from "../../src/infra/redis/connection.js";
import { isRedisConnectionError } from "../../src/infra/unavailable.js";
import { silentLogger } from "../../src/lib/logger.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";
import type { TcpProxy } from "../helpers/tcp-proxy.js";

const redisUp = await redisAvailable();
if (!redisUp) process.stdout.write("SKIPPED Redis command deadline tests: no Redis at 127.0.0.1:6379\n");

const TIMEOUT_MS = 200;

let backend: RedisBackend | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  if (backend !== undefined) {
    await dropRedisPrefix(backend.client, backend.prefix).catch(() => undefined);
    await backend.close();
  }
  await proxy?.close();
  backend = undefined;
  proxy = undefined;
});

/** Whether Redis holds `key`, asked by another process (this one is stalled while it asks). */
function existsElsewhere(key: string): boolean {
  return execFileSync("redis-cli", ["-u", REDIS_URL, "EXISTS", key], { encoding: "utf8" }).trim() === "1";
}

(redisUp ? describe : describe.skip)("Redis command deadline", () => {
  it("takes an answer that came while the process was stalled past the timeout", async () => {
    backend = await connectRedis(REDIS_URL, silentLogger, freshRedisPrefix(), {
      connectTimeoutMs: 3000,
      commandTimeoutMs: TIMEOUT_MS,
    });
    const key = `${backend.prefix}written`;
    const written = backend.client.set(key, "v");
    // Stall this process (synchronously: no timer, no socket read) until Redis has carried the
    // command out, and so sent its answer, and until the timeout has passed twice over.
    const stalled = Date.now();
    let done = false;
    while (!done || Date.now() - stalled < 2 * TIMEOUT_MS) done ||= existsElsewhere(key);
    await expect(written).resolves.toBe("OK");
    await expect(backend.client.get(key)).resolves.toBe("v");
  });

  it("still fails a command that gets no answer, with an error read as Redis unavailable", async () => {
    const url = new URL(REDIS_URL);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    url.port = String(proxy.port);
    backend = await connectRedis(url.toString(), silentLogger, freshRedisPrefix(), {
      connectTimeoutMs: 3000,
      commandTimeoutMs: TIMEOUT_MS,
    });
    await expect(backend.client.ping()).resolves.toBe("PONG");
    proxy.drop();
    const error = await backend.client.get(`${backend.prefix}k`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(RedisCommandTimeoutError);
    expect((error as Error).message).toBe(`Redis GET got no answer in ${TIMEOUT_MS} ms`);
    expect(isRedisConnectionError(error)).toBe(true);
    await proxy.up();
  });
});
