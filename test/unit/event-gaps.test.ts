/**
 * EventGaps (src/domain/events/event-gaps.ts): the queues of the users a failed fan-out was for are
 * deleted, from the reset log or, when the log cannot take them, from memory; nothing is lost
 * while the store is away. The log here stands in for the `event_queue_resets` table (its SQL is
 * exercised by test/scale/event-gaps.test.ts on PostgreSQL).
 */
import { describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { EventGaps } from "../../src/domain/events/event-gaps.js";
import type { QueueResetLog } from "../../src/domain/events/event-gaps.js";
import { MemoryEventQueueStore } from "../../src/domain/events/memory-queue-store.js";
import type { QueueOptions } from "../../src/domain/events/types.js";
import { silentLogger } from "../../src/lib/logger.js";

const options = (allPublicStreams: boolean): QueueOptions => ({
  eventTypes: null,
  narrow: [],
  allPublicStreams,
  applyMarkdown: true,
  clientGravatar: false,
  capabilities: { bulkMessageDeletion: true, userSettingsObject: true, streamTypingNotifications: true },
});

function memoryLog(): QueueResetLog & { rows: { id: number; userId: number | null }[]; failing: boolean } {
  let next = 1;
  const log = {
    rows: [] as { id: number; userId: number | null }[],
    failing: false,
    add(userIds: readonly (number | null)[]) {
      if (log.failing) return Promise.reject(new Error("database away"));
      for (const userId of userIds) log.rows.push({ id: next++, userId });
      return Promise.resolve();
    },
    pending(limit: number) {
      return Promise.resolve(log.rows.slice(0, limit));
    },
    remove(ids: readonly number[]) {
      log.rows = log.rows.filter((r) => !ids.includes(r.id));
      return Promise.resolve();
    },
  };
  return log;
}

async function storeWithQueues(): Promise<MemoryEventQueueStore> {
  const store = new MemoryEventQueueStore();
  const queues: [string, number, boolean][] = [
    ["a1", 1, false],
    ["a2", 1, false],
    ["b1", 2, false],
    ["p3", 3, true],
  ];
  for (const [id, userId, pub] of queues) {
    await store.allocate({ id, userId, options: options(pub), lifespanSecs: 600, nowMs: 0 });
  }
  return store;
}

const alive = async (store: MemoryEventQueueStore): Promise<string[]> => {
  const out: string[] = [];
  for (const id of ["a1", "a2", "b1", "p3"]) if ((await store.describe(id)) !== undefined) out.push(id);
  return out;
};

describe("EventGaps", () => {
  it("deletes every queue of the users a failed fan-out was for, and the public queues for null", async () => {
    const store = await storeWithQueues();
    const log = memoryLog();
    const gaps = new EventGaps(store, log, new ManualClock(), silentLogger);
    await gaps.record([1, null, 1]);
    await gaps.kick();
    expect(await alive(store)).toEqual(["b1"]);
    expect(log.rows).toEqual([]);
    expect(gaps.degraded).toBe(false);
  });

  it("keeps the resets in memory when the log cannot take them", async () => {
    const store = await storeWithQueues();
    const log = memoryLog();
    log.failing = true;
    const gaps = new EventGaps(store, log, new ManualClock(), silentLogger);
    await gaps.record([2]);
    await gaps.kick();
    expect(await alive(store)).toEqual(["a1", "a2", "p3"]);
    expect(gaps.degraded).toBe(false);
  });

  it("stays degraded and keeps the rows while the store is away, then resets once it answers", async () => {
    const store = await storeWithQueues();
    const log = memoryLog();
    const gaps = new EventGaps(store, log, new ManualClock(), silentLogger);
    const realDelete = store.delete.bind(store);
    store.delete = () => Promise.reject(new Error("Connection is closed."));
    await gaps.record([1]);
    await gaps.kick();
    expect([gaps.degraded, log.rows.map((r) => r.userId), await alive(store)]).toEqual([
      true,
      [1],
      ["a1", "a2", "b1", "p3"],
    ]);
    store.delete = realDelete;
    await gaps.kick();
    expect([gaps.degraded, log.rows, await alive(store)]).toEqual([false, [], ["b1", "p3"]]);
  });
});
