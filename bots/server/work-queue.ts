/**
 * A bot's bounded work queue. The bot server accepts an outgoing webhook into the queue and answers
 * at once; workers run the bot later. Items of one conversation (stream + topic, or DM group) run
 * one at a time in message-id order, so replies keep their order; different conversations run
 * concurrently. When the queue is full, `offer` refuses and the bot server answers 503, so that the
 * chat server delivers the webhook again later.
 */

export interface WorkItem {
  /** Conversation key: items with the same key run in order, one at a time. */
  key: string;
  /** Order within a conversation (the message id). */
  order: number;
  run(): Promise<void>;
}

export interface WorkQueueOptions {
  /** Most items waiting or running (default 1000). */
  capacity?: number;
  /** Most conversations worked on at once (default 4). */
  concurrency?: number;
  /** Called with an item's error (items should handle their own; this is a last resort). */
  onError?(err: unknown): void;
  /**
   * Awaited before a conversation takes its next item (e.g. until the bot may send again), so the
   * item is chosen as late as possible: deliveries that arrived out of order meanwhile are sorted.
   */
  beforeNext?(key: string): Promise<void>;
}

export class WorkQueue {
  readonly capacity: number;
  readonly concurrency: number;
  private readonly lanes = new Map<string, WorkItem[]>();
  private readonly ready: string[] = [];
  private readonly busy = new Set<string>();
  private count = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WorkQueueOptions = {}) {
    this.capacity = options.capacity ?? 1000;
    this.concurrency = options.concurrency ?? 4;
  }

  /** Items waiting or running. */
  get depth(): number {
    return this.count;
  }

  /** Adds an item; false (nothing added) when the queue is full. */
  offer(item: WorkItem): boolean {
    if (this.count >= this.capacity) return false;
    this.count++;
    const lane = this.lanes.get(item.key);
    if (lane === undefined) {
      this.lanes.set(item.key, [item]);
      if (!this.busy.has(item.key)) this.ready.push(item.key);
    } else {
      // Deliveries may arrive out of order: keep each conversation in message-id order.
      let at = lane.length;
      while (at > 0 && (lane[at - 1]?.order ?? 0) > item.order) at--;
      lane.splice(at, 0, item);
    }
    this.pump();
    return true;
  }

  /** Resolves when nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.busy.size < this.concurrency && this.ready.length > 0) {
      const key = this.ready.shift() as string;
      this.busy.add(key);
      void this.drainLane(key);
    }
  }

  private async drainLane(key: string): Promise<void> {
    for (;;) {
      // One macrotask, so that deliveries arriving together are sorted before the first is taken.
      await new Promise((resolve) => setImmediate(resolve));
      await this.options.beforeNext?.(key);
      const lane = this.lanes.get(key);
      const item = lane?.shift();
      if (item === undefined) {
        this.lanes.delete(key);
        break;
      }
      try {
        await item.run();
      } catch (err) {
        this.options.onError?.(err);
      }
      this.count--;
    }
    this.busy.delete(key);
    this.pump();
    if (this.count === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
