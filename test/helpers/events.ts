/**
 * Event-queue helpers for API tests: register a queue, then read what reached it.
 *
 *   const q = await registerQueue(server, users.hamlet, { event_types: ["message"] });
 *   await api.post("/api/v1/messages", { as: users.othello, params: {...} });
 *   expect(await drainEvents(q)).toEqual([{ type: "message", ..., id: 0 }]);
 *
 * `drainEvents` waits until the server has fanned out everything sent so far, fetches with
 * dont_block, and acknowledges what it got (the next call starts after it).
 */
import type { ApiResponse, Credentials, ParamValue } from "./client.js";
import type { TestServer } from "./test-server.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are asserted as literal objects
export type WireEvent = Record<string, any> & { id: number; type: string };

export interface TestQueue {
  server: TestServer;
  user: Credentials;
  id: string;
  /** The highest event id received so far (acknowledged by the next fetch). */
  lastEventId: number;
  /** The whole POST /register response body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- asserted as literals
  register: any;
}

/** POST /register as `user`; fails the test unless it succeeds. */
export async function registerQueue(
  server: TestServer,
  user: Credentials,
  args: Record<string, ParamValue | undefined> = {},
): Promise<TestQueue> {
  // Register's conformance to Zulip's schema is asserted in register.test.ts; here the initial state
  // may include `streams`, whose BasicChannel lacks fields the schema requires (see streams.test.ts).
  const opts = { as: user, params: args, skipSchemaCheck: true };
  const res = await server.api.post("/api/v1/register", opts);
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { server, user, id: res.body.queue_id as string, lastEventId: -1, register: res.body };
}

/** GET /events on the queue with explicit arguments (no bookkeeping). */
export function getEvents(
  queue: TestQueue,
  params: { last_event_id?: number; dont_block?: boolean },
  signal?: AbortSignal,
  opts: { skipSchemaCheck?: boolean } = {},
): Promise<ApiResponse> {
  const request = {
    as: queue.user,
    params: { queue_id: queue.id, ...params },
    ...(signal ? { signal } : {}),
    ...(opts.skipSchemaCheck === true ? { skipSchemaCheck: true } : {}),
  };
  return queue.server.api.get("/api/v1/events", request);
}

function takeEvents(queue: TestQueue, res: ApiResponse): WireEvent[] {
  if (res.status !== 200) throw new Error(`GET /events failed: ${res.status} ${res.text}`);
  const events = res.body.events as WireEvent[];
  const last = events[events.length - 1];
  if (last !== undefined) queue.lastEventId = last.id;
  return events;
}

/** Waits for the server's pending fan-out, then returns (and acknowledges) every queued event. */
export async function drainEvents(
  queue: TestQueue,
  opts: { skipSchemaCheck?: boolean } = {},
): Promise<WireEvent[]> {
  await queue.server.running.services.eventQueues.idle();
  return takeEvents(
    queue,
    await getEvents(queue, { last_event_id: queue.lastEventId, dont_block: true }, undefined, opts),
  );
}

/** A blocking GET /events: resolves when events arrive (or a heartbeat); acknowledges the last batch. */
export async function nextEvents(
  queue: TestQueue,
  signal?: AbortSignal,
  opts: { skipSchemaCheck?: boolean } = {},
): Promise<WireEvent[]> {
  return takeEvents(queue, await getEvents(queue, { last_event_id: queue.lastEventId }, signal, opts));
}

/**
 * Resolves once the server holds `n` blocked GET /events (so a test can act while one waits). The
 * bound only ends a test that would never get there: attaching a poll takes Redis round trips with
 * TEST_STACK=postgres-redis, slow on a loaded machine.
 */
export async function waitForWaiters(server: TestServer, n: number, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (server.running.services.eventQueues.waiterCount !== n) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`expected ${n} waiters, have ${server.running.services.eventQueues.waiterCount}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
