/**
 * Live updates the way Zulip's clients get them: POST /register once, then long-poll GET /events.
 * A `BAD_EVENT_QUEUE_ID` (the server forgot the queue: restart, timeout) means register again and
 * reload the state; a network drop or a server error means wait (1 s, doubling up to 5 s, so the
 * app notices a server that is back within seconds) and poll the same queue again. `wake()` ends
 * the wait at once: the app calls it when the browser comes back online or gets the focus.
 */

export interface ServerEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

export interface Registration {
  queueId: string;
  lastEventId: number;
  /** The whole register answer (initial state). */
  state: Record<string, unknown>;
}

export interface EventLoopDeps {
  register(): Promise<Registration>;
  poll(queueId: string, lastEventId: number, signal: AbortSignal): Promise<ServerEvent[]>;
  /** After every (re-)registration: replace the app's state with this one. */
  onRegistered(registration: Registration): void;
  onEvents(events: ServerEvent[]): void;
  /** The connection is down (true) or back (false). */
  onConnectionChange?(down: boolean): void;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Whether an error means the queue is gone (BAD_EVENT_QUEUE_ID). */
  isBadQueue(err: unknown): boolean;
}

export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 5_000;

export class EventLoop {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  /** Aborts the current back-off wait (see `wake`). */
  private waiting: AbortController | undefined;

  constructor(private readonly deps: EventLoopDeps) {}

  start(): Promise<void> {
    this.running ??= this.run();
    return this.running;
  }

  stop(): void {
    this.abort.abort();
  }

  /** Retries at once if the loop is waiting after a failure. */
  wake(): void {
    this.waiting?.abort();
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    const { deps } = this;
    const signal = this.abort.signal;
    let queue: { id: string; lastEventId: number } | undefined;
    let delay = FIRST_RETRY_MS;
    let down = false;
    const setDown = (value: boolean): void => {
      if (value !== down) deps.onConnectionChange?.(value);
      down = value;
    };
    while (!signal.aborted) {
      try {
        if (queue === undefined) {
          const registration = await deps.register();
          if (signal.aborted) return;
          queue = { id: registration.queueId, lastEventId: registration.lastEventId };
          deps.onRegistered(registration);
        }
        const events = await deps.poll(queue.id, queue.lastEventId, signal);
        if (signal.aborted) return;
        for (const event of events) queue.lastEventId = Math.max(queue.lastEventId, event.id);
        const real = events.filter((e) => e.type !== "heartbeat");
        if (real.length > 0) deps.onEvents(real);
        delay = FIRST_RETRY_MS;
        setDown(false);
      } catch (err) {
        if (signal.aborted) return;
        if (queue !== undefined && deps.isBadQueue(err)) {
          queue = undefined; // register again at once; the new state replaces the old
          continue;
        }
        setDown(true);
        const waiting = new AbortController();
        this.waiting = waiting;
        const stop = () => waiting.abort();
        signal.addEventListener("abort", stop);
        await deps.sleep(delay, waiting.signal).catch(() => undefined);
        signal.removeEventListener("abort", stop);
        this.waiting = undefined;
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      }
    }
  }
}
