/** One HTTP attempt of an outgoing-webhook delivery: how it can end, and the delivery's id. */
import type { EgressOutcome } from "../egress/egress-request.js";

/** The header naming a delivery; the same value is the payload's `delivery_id` field. */
export const DELIVERY_ID_HEADER = "X-Delivery-Id";

/**
 * A delivery's stable id: `<message id>.<job id>`. One job per message, bot and service, kept in
 * the database until delivered, so every attempt (retries, and re-sends after a crash or restart
 * mid-delivery) carries the same id, and two deliveries never share one.
 */
export function deliveryId(job: { id: number; messageId: number }): string {
  return `${job.messageId}.${job.id}`;
}

/** Answers that mean "busy, try again later" (Retry-After honoured): retried, not reported as failures. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** How one HTTP attempt ended (the egress outcome, with the answer's Retry-After). */
export type Attempt =
  | { kind: "response"; status: number; body: Buffer; retryAfterSeconds?: number }
  | Exclude<EgressOutcome, { kind: "response" }>;
