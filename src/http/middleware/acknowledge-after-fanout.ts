import type { Middleware } from "koa";
import type { EventQueueService } from "../../domain/events/event-queue-service.js";

/**
 * A request that published events is answered only once they are in every queue they belong to,
 * or their users' queues are logged for invalidation (docs/reliability.md, "live events"): an
 * acknowledged message never leaves a silent gap, even when this process dies right after. Only
 * with a shared (Redis) store; in one process it costs nothing.
 */
export function acknowledgeAfterFanout(events: EventQueueService): Middleware {
  return async function acknowledgeAfterFanoutMiddleware(_ctx, next) {
    await events.acknowledgeAfterFanout(next);
  };
}
