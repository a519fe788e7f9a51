import { describe, expect, it } from "@jest/globals";
import { EventLoop } from "../src/lib/event-loop.js";
import type { EventLoopDeps, Registration, ServerEvent } from "../src/lib/event-loop.js";

class BadQueue extends Error {}

/** A scripted server: each poll answer is taken from `polls` in order; then the loop is stopped. */
function scripted(polls: (ServerEvent[] | Error)[]) {
  const log: string[] = [];
  let registrations = 0;
  const holder: { loop?: EventLoop } = {};
  const deps: EventLoopDeps = {
    register: () => {
      registrations++;
      log.push(`register ${registrations}`);
      const r: Registration = { queueId: `q${registrations}`, lastEventId: -1, state: { n: registrations } };
      return Promise.resolve(r);
    },
    poll: (queueId, lastEventId) => {
      log.push(`poll ${queueId} ${lastEventId}`);
      const next = polls.shift();
      if (next === undefined) {
        holder.loop!.stop();
        return Promise.resolve([]);
      }
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    onRegistered: (r) => log.push(`state ${JSON.stringify(r.state)}`),
    onEvents: (events) => log.push(`events ${events.map((e) => e.id).join(",")}`),
    onConnectionChange: (down) => log.push(down ? "down" : "up"),
    sleep: (ms) => {
      log.push(`sleep ${ms}`);
      return Promise.resolve();
    },
    isBadQueue: (err) => err instanceof BadQueue,
  };
  const loop = new EventLoop(deps);
  holder.loop = loop;
  return { loop, log };
}

describe("EventLoop", () => {
  it("polls from the last event id it saw and skips heartbeats", async () => {
    const { loop, log } = scripted([
      [
        { id: 0, type: "message" },
        { id: 1, type: "message" },
      ],
      [{ id: 2, type: "heartbeat" }],
      [{ id: 3, type: "update_message" }],
    ]);
    await loop.start();
    expect(log).toEqual([
      "register 1",
      'state {"n":1}',
      "poll q1 -1",
      "events 0,1",
      "poll q1 1",
      "poll q1 2",
      "events 3",
      "poll q1 3",
    ]);
  });

  it("registers again, and reloads the state, after BAD_EVENT_QUEUE_ID", async () => {
    const { loop, log } = scripted([
      [{ id: 0, type: "message" }],
      new BadQueue(),
      [{ id: 0, type: "message" }],
    ]);
    await loop.start();
    expect(log).toEqual([
      "register 1",
      'state {"n":1}',
      "poll q1 -1",
      "events 0",
      "poll q1 0",
      "register 2",
      'state {"n":2}',
      "poll q2 -1",
      "events 0",
      "poll q2 0",
    ]);
  });

  it("backs off after network errors (1 s doubling to 5 s) and resumes the same queue", async () => {
    const drop = new TypeError("Failed to fetch");
    const { loop, log } = scripted([drop, drop, drop, drop, drop, drop, [{ id: 4, type: "message" }], drop]);
    await loop.start();
    expect(log).toEqual([
      "register 1",
      'state {"n":1}',
      "poll q1 -1",
      "down",
      "sleep 1000",
      "poll q1 -1",
      "sleep 2000",
      "poll q1 -1",
      "sleep 4000",
      "poll q1 -1",
      "sleep 5000",
      "poll q1 -1",
      "sleep 5000",
      "poll q1 -1",
      "sleep 5000",
      "poll q1 -1",
      "events 4",
      "up",
      "poll q1 4",
      "down",
      "sleep 1000",
      "poll q1 4",
    ]);
  });

  it("retries at once when woken (the browser is back online or focused)", async () => {
    const log: string[] = [];
    let polls = 0;
    const holder: { loop?: EventLoop } = {};
    const loop = new EventLoop({
      register: () => Promise.resolve({ queueId: "q", lastEventId: -1, state: {} }),
      poll: () => {
        polls++;
        log.push(`poll ${polls}`);
        if (polls === 1) return Promise.reject(new TypeError("Failed to fetch"));
        holder.loop!.stop();
        return Promise.resolve([]);
      },
      onRegistered: () => undefined,
      onEvents: () => undefined,
      // A sleep that only ends when its signal aborts: the loop goes on only if woken.
      sleep: (ms, signal) => {
        log.push(`sleep ${ms}`);
        return new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
      },
      isBadQueue: () => false,
    });
    holder.loop = loop;
    const done = loop.start();
    for (let i = 0; i < 100 && !log.includes("sleep 1000"); i++) await Promise.resolve();
    loop.wake();
    await done;
    expect(log).toEqual(["poll 1", "sleep 1000", "poll 2"]);
  });
});
