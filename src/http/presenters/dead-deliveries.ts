import type { EndpointState } from "../../store/outgoing-endpoints-repo.js";
import type { OutgoingJob } from "../../store/outgoing-repo.js";
import type { BotService } from "../../domain/users/types.js";
import { deliveryId } from "../../domain/outgoing/attempt.js";
import type { JobPayload } from "../../domain/outgoing/payload.js";

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.floor(ms / 1000);
}

/** A dead outgoing delivery (docs/integration-operations.md, "Dead letters"). */
export function deadDeliveryToWire(job: OutgoingJob): Record<string, unknown> {
  const payload = JSON.parse(job.payload) as JobPayload;
  return {
    id: job.id,
    delivery_id: deliveryId(job),
    service_id: job.serviceId,
    message_id: job.messageId,
    trigger: payload.trigger,
    attempts: job.attempts,
    error: job.lastError,
    created_at: seconds(job.createdAtMs),
    dead_at: seconds(job.finishedAtMs),
  };
}

/** An endpoint's delivery state: every service of the bot, `ok` when it has no failures on record. */
export function endpointToWire(
  service: BotService,
  state: EndpointState | undefined,
  circuitThreshold: number,
): Record<string, unknown> {
  const failures = state?.consecutiveFailures ?? 0;
  const disabled = state !== undefined && state.disabledAtMs !== null;
  return {
    service_id: service.id,
    url: service.baseUrl,
    state: disabled
      ? "disabled"
      : failures >= circuitThreshold
        ? "circuit_open"
        : failures > 0
          ? "failing"
          : "ok",
    consecutive_failures: failures,
    failing_since: seconds(state?.failingSinceMs ?? null),
    next_probe_at: !disabled && failures >= circuitThreshold ? seconds(state?.probeAtMs ?? null) : null,
    last_error: state?.lastError ?? null,
    disabled_at: seconds(state?.disabledAtMs ?? null),
    disabled_reason: state?.disabledReason ?? null,
  };
}
