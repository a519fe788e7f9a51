/**
 * Event queues shared through Redis by several "processes" (EventQueueService instances, each with
 * its own Redis connections, one key prefix): register on A, poll through B, receive what C sent.
 * Skipped where no Redis runs.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { Clock } from "../../src/clock.js";
import type { ZulipEvent } from "../../src/domain/events/event-sink.js";
import { EventQueueService } from "../../src/domain/events/event-queue-service.js";
import type { QueueRequest } from "../../src/domain/events/event-queue-service.js";
import { MemoryEventQueueStore } from "../../src/domain/events/memory-queue-store.js";
import { userRecord as user } from "../helpers/users.js";
import { BadEventQueueIdError } from "../../src/errors.js";
import { connectRedis } from "../../src/infra/redis/connection.js";
import type { RedisBackend } from "../../src/infra/redis/connection.js";
import { RedisEventQueueStore } from "../../src/infra/redis/redis-queue-store.js";
import { silentLogger } from "../../src/lib/logger.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";

const redisUp = await redisAvailable();
if (!redisUp) process.stdout.write("SKIPPED Redis event-queue tests: no Redis at 127.0.0.1:6379\n");

const REQUEST: QueueRequest = {
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: true,
  clientGravatar: false,
  lifespanSecs: 0,
  capabilities: {},
};

const words = (n: number): ZulipEvent => ({ type: "alert_words", alert_words: [`w${n}`] });
const SETTINGS = {
  heartbeatSeconds: 600,
  queueTimeoutSeconds: 600,
  gcIntervalSeconds: 60,
  maxQueueEvents: 100,
};

interface Proc {
  service: EventQueueService;
  backend: RedisBackend;
}

let prefix = freshRedisPrefix();
const procs: Proc[] = [];

/** One server process's event queues: own connections, the deployment's prefix. */
async function processWith(clock: Clock = new ManualClock(), waiterLeaseMs = 120_000): Promise<Proc> {
  const backend = await connectRedis(REDIS_URL, silentLogger, prefix);
  const store = new RedisEventQueueStore(backend.client, backend.subscriber, { prefix, waiterLeaseMs });
  await store.subscribe();
  const proc = { service: new EventQueueService(store, SETTINGS, clock, silentLogger), backend };
  procs.push(proc);
  return proc;
}

async function untilWaiters(s: EventQueueService, n: number): Promise<void> {
  while (s.waiterCount !== n) await new Promise((resolve) => setTimeout(resolve, 1));
}

afterEach(async () => {
  for (const p of procs.splice(0)) {
    await p.service.close();
    await p.backend.close();
  }
  const cleanup = await connectRedis(REDIS_URL, silentLogger, prefix);
  await dropRedisPrefix(cleanup.client, prefix);
  await cleanup.close();
  prefix = freshRedisPrefix();
});

(redisUp ? describe : describe.skip)("event queues in Redis, across processes", () => {
  it("registers on A, polls through B, and receives what C sent", async () => {
    const [a, b, c] = [await processWith(), await processWith(), await processWith()];
    const id = await a.service.allocate(user(1), REQUEST);
    const waiting = b.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: false });
    await untilWaiters(b.service, 1);
    c.service.send(words(1), [1]);
    expect(await waiting).toEqual([{ type: "alert_words", alert_words: ["w1"], id: 0 }]);
    c.service.send(words(2), [1]);
    await c.service.idle();
    expect(await a.service.getEvents(1, { queueId: id, lastEventId: 0, dontBlock: true })).toEqual([
      { type: "alert_words", alert_words: ["w2"], id: 1 },
    ]);
  });

  it("keeps a queue after the process that created it is gone", async () => {
    const a = await processWith();
    const id = await a.service.allocate(user(1), REQUEST);
    procs.splice(procs.indexOf(a), 1);
    await a.service.close();
    await a.backend.close();
    const b = await processWith();
    b.service.send(words(1), [1]);
    await b.service.idle();
    expect(await b.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: true })).toEqual([
      { type: "alert_words", alert_words: ["w1"], id: 0 },
    ]);
    expect(await b.service.store.size()).toBe(1);
  });

  it("answers A's waiting poll when a newer poll of the queue arrives through B", async () => {
    const [a, b] = [await processWith(), await processWith()];
    const id = await a.service.allocate(user(1), REQUEST);
    const first = a.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: false });
    await untilWaiters(a.service, 1);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the waiter is recorded in Redis
    expect(await b.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: true })).toEqual([]);
    expect(await first).toEqual([]);
    expect(a.service.waiterCount).toBe(0);
  });

  it("ends A's waiting poll when B deletes the queue; later polls get BAD_EVENT_QUEUE_ID", async () => {
    const [a, b] = [await processWith(), await processWith()];
    const id = await a.service.allocate(user(1), REQUEST);
    const waiting = a.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: false });
    await untilWaiters(a.service, 1);
    await b.service.deleteQueue(1, id);
    expect(await waiting).toEqual([]);
    await expect(a.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: true })).rejects.toEqual(
      new BadEventQueueIdError(id),
    );
  });

  it("collects a queue whose waiter's process died once the waiter's lease has passed", async () => {
    const clock = new ManualClock();
    const a = await processWith(clock, 120_000);
    const b = await processWith(clock, 120_000);
    const id = await a.service.allocate(user(1), { ...REQUEST, lifespanSecs: 60 });
    void a.service.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: false });
    await untilWaiters(a.service, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A dies without detaching its waiter: its connections drop.
    a.backend.client.disconnect();
    a.backend.subscriber.disconnect();
    clock.advance(60_000);
    expect(await b.service.gc()).toEqual([]);
    clock.advance(60_000);
    expect(await b.service.gc()).toEqual([id]);
    expect(await b.service.store.describe(id)).toBeUndefined();
  });
});

const flags = (messages: number[]): ZulipEvent => ({
  type: "update_message_flags",
  op: "add",
  operation: "add",
  flag: "starred",
  messages,
  all: false,
});

describe.each(redisUp ? ["memory", "redis"] : ["memory"])("coalescing on the %s store", (kind) => {
  it("folds undelivered flag events into one, and starts a new one after delivery", async () => {
    const s =
      kind === "memory"
        ? new EventQueueService(new MemoryEventQueueStore(), SETTINGS, new ManualClock(), silentLogger)
        : (await processWith()).service;
    const id = await s.allocate(user(1), REQUEST);
    s.send(flags([1, 2]), [1]);
    s.send(words(1), [1]);
    s.send(flags([3]), [1]);
    s.send({ ...flags([]), flag: "read" }, [1]);
    await s.idle();
    expect(await s.getEvents(1, { queueId: id, lastEventId: -1, dontBlock: true })).toEqual([
      { type: "alert_words", alert_words: ["w1"], id: 1 },
      { ...flags([1, 2, 3]), id: 2 },
      { ...flags([]), flag: "read", id: 3 },
    ]);
    s.send(flags([4]), [1]);
    await s.idle();
    expect(await s.getEvents(1, { queueId: id, lastEventId: 3, dontBlock: true })).toEqual([
      { ...flags([4]), id: 4 },
    ]);
    if (kind === "memory") await s.close();
  });
});
