import type { Logger } from "../lib/logger.js";
import type { RedisBackend } from "./redis/connection.js";

/**
 * "Something cached changed" between processes (`serve --redis`): a service that caches what the
 * database holds (the linkifiers the renderer applies) publishes its topic after a change, and every
 * process (this one included) drops its copy when it hears it.
 */
export interface ChangeBus {
  publish(topic: string): void;
  /** Calls `listener` whenever `topic` is published; returns a function that stops it. */
  subscribe(topic: string, listener: () => void): () => void;
}

/** The channel `<prefix>changed`, message = topic. Subscribes before it resolves. */
export async function redisChangeBus(redis: RedisBackend, logger: Logger): Promise<ChangeBus> {
  const channel = `${redis.prefix}changed`;
  const listeners = new Map<string, Set<() => void>>();
  redis.subscriber.on("message", (ch: string, topic: string) => {
    if (ch !== channel) return;
    for (const listener of listeners.get(topic) ?? []) listener();
  });
  // After a lost connection a change may have been missed: every cache is dropped.
  redis.subscriber.on("ready", () => {
    for (const set of listeners.values()) for (const listener of set) listener();
  });
  await redis.subscriber.subscribe(channel);
  return {
    publish(topic) {
      redis.client.publish(channel, topic).catch((err: unknown) => {
        logger.warn("publishing a change failed", { topic, error: err as Error });
      });
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (set === undefined) listeners.set(topic, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}
