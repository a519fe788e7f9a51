import type { Clock } from "../../clock.js";
import type { DeliveryKey } from "../../store/seen-deliveries-repo.js";

/** What the store keeps of deliveries seen (src/store/seen-deliveries-repo.ts). */
export interface SeenDeliveriesStore {
  claim(key: DeliveryKey, nowMs: number, sinceMs: number): Promise<boolean>;
  release(key: DeliveryKey, seenAtMs: number): Promise<void>;
  prune(sinceMs: number): Promise<void>;
}

/** How long a delivery id is remembered by default: 72 hours (GitHub redelivers up to 3 days). */
export const DEFAULT_DEDUPE_WINDOW_MS = 72 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/** A claim on a delivery: `release()` when its processing failed, so the sender's retry goes through. */
export interface DeliveryClaim {
  release(): Promise<void>;
}

/**
 * Signed deliveries cannot be replayed: the first request with a delivery id within the window
 * claims it, and a repeat (a replayed capture, or the service's retry of a delivery already
 * posted) is answered with success and posts nothing. Shared by every process of a deployment
 * through the database.
 */
export class SeenDeliveries {
  private lastPruneMs = 0;

  constructor(
    private readonly store: SeenDeliveriesStore,
    private readonly clock: Clock,
    readonly windowMs: number = DEFAULT_DEDUPE_WINDOW_MS,
  ) {}

  /** The claim, or undefined when the delivery was seen within the window. */
  async claim(key: DeliveryKey): Promise<DeliveryClaim | undefined> {
    const now = this.clock.now();
    const since = now - this.windowMs;
    if (now - this.lastPruneMs >= PRUNE_EVERY_MS) {
      this.lastPruneMs = now;
      await this.store.prune(since);
    }
    if (!(await this.store.claim(key, now, since))) return undefined;
    return { release: () => this.store.release(key, now) };
  }
}
