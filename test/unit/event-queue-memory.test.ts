import { expect, it } from "@jest/globals";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { ManualClock } from "../../src/clock.js";
import { EventQueueService } from "../../src/domain/events/event-queue-service.js";
import { MemoryEventQueueStore } from "../../src/domain/events/memory-queue-store.js";
import { userRecord as user } from "../helpers/users.js";
import { silentLogger } from "../../src/lib/logger.js";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

it("keeps an idle queue under 1 KB (10,000 queues of 1,000 users)", async () => {
  const settings = {
    heartbeatSeconds: 50,
    queueTimeoutSeconds: 600,
    gcIntervalSeconds: 60,
    maxQueueEvents: 10000,
  };
  const service = new EventQueueService(
    new MemoryEventQueueStore(),
    settings,
    new ManualClock(),
    silentLogger,
  );
  const users = Array.from({ length: 1000 }, (_, i) => user(i + 1));
  const N = 10_000;
  const before = heapUsed();
  for (let i = 0; i < N; i++) {
    // A typical client registration: a few event types, no narrow, client capabilities.
    await service.allocate(users[i % users.length]!, {
      eventTypes: ["message", "update_message_flags", "subscription"],
      narrow: [],
      allPublicStreams: false,
      applyMarkdown: true,
      clientGravatar: true,
      lifespanSecs: 0,
      capabilities: { bulkMessageDeletion: true, userSettingsObject: true },
    });
  }
  const bytesPerQueue = (heapUsed() - before) / N;
  expect(await service.store.size()).toBe(N);
  process.stdout.write(`event queues: ${Math.round(bytesPerQueue)} bytes of heap per idle queue\n`);
  expect(bytesPerQueue).toBeGreaterThan(0);
  expect(bytesPerQueue).toBeLessThan(1024);
  await service.close();
});
