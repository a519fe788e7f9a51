import type { OutgoingJob } from "../../store/outgoing-repo.js";
import type { BotService, User } from "../users/types.js";
import { Interface, genericRequestBody, slackRequestForm } from "../outgoing/payload.js";
import type { JobPayload } from "../outgoing/payload.js";
import type { DeliveryLog } from "./delivery-log.js";
import type { Outcome } from "./types.js";

/** How one HTTP attempt of the outgoing worker ended (its `Attempt`, structurally). */
export type AttemptResult =
  | { kind: "response"; status: number; body: Buffer }
  | { kind: "timeout" }
  | { kind: "connection"; reason: string }
  | { kind: "failed"; reason: string; status?: number }
  | { kind: "exception"; name: string; message: string }
  | { kind: "aborted" };

export interface OutgoingAttempt {
  job: OutgoingJob;
  bot: User;
  service: BotService;
  payload: JobPayload;
  attempt: AttemptResult;
  /** Another attempt follows. */
  willRetry: boolean;
  /** The request carried the old token during a rotation's overlap. */
  oldToken?: boolean;
  /** An old signing secret signed the request too, during a rotation's overlap. */
  oldSigningSecret?: boolean;
}

/** The request the worker sent for a job: its body text and content type (delivery id included). */
export function outgoingRequest(
  job: { id: number; messageId: number },
  bot: User,
  service: BotService,
  p: JobPayload,
  realmHost: string,
): { body: string; contentType: string; deliveryId: string } {
  const id = `${job.messageId}.${job.id}`;
  if (service.interface === Interface.SLACK) {
    const form = new URLSearchParams({ ...slackRequestForm(p, bot, service, realmHost), delivery_id: id });
    return { body: form.toString(), contentType: "application/x-www-form-urlencoded", deliveryId: id };
  }
  return {
    body: JSON.stringify({ ...genericRequestBody(p, bot, service), delivery_id: id }),
    contentType: "application/json",
    deliveryId: id,
  };
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The outgoing worker's hook: one log entry per HTTP attempt. `delivered` for a 2xx answer,
 * `retrying` for a timeout or connection error that will be tried again, `failed` otherwise.
 * The request is serialised when the turn's entries are handed to the log, the entry built
 * (redacted) where it is written: never on the worker's path.
 */
export function outgoingAttemptLogger(
  log: DeliveryLog,
  realmUrl: () => string,
  now: () => number,
): (a: OutgoingAttempt) => void {
  return (a) => {
    if (!log.enabled || a.attempt.kind === "aborted") return;
    const at = now();
    const { attempt } = a;
    let outcome: Outcome;
    let status: number | null = null;
    let responseBody: string | null = null;
    let error: string | undefined;
    switch (attempt.kind) {
      case "response":
        status = attempt.status;
        responseBody = attempt.body.toString("utf8");
        outcome = status >= 200 && status < 300 ? "delivered" : a.willRetry ? "retrying" : "failed";
        if (outcome === "failed") error = `The service answered with HTTP ${status}`;
        break;
      case "timeout":
      case "connection":
        outcome = a.willRetry ? "retrying" : "failed";
        error = attempt.kind === "timeout" ? "Timed out" : `Connection error: ${attempt.reason}`;
        break;
      case "failed":
        status = attempt.status ?? null;
        outcome = "failed";
        error = attempt.reason;
        break;
      default:
        outcome = "failed";
        error = `${attempt.name}: ${attempt.message}`;
    }
    const host = hostOf(realmUrl());
    log.recordOutgoing(() => {
      const request = outgoingRequest(a.job, a.bot, a.service, a.payload, host);
      return {
        botId: a.bot.id,
        createdMs: at,
        integration: a.service.interface === Interface.SLACK ? "slack" : "generic",
        event: a.payload.trigger,
        url: a.service.baseUrl,
        headers: { "x-delivery-id": request.deliveryId },
        body: request.body,
        contentType: request.contentType,
        responseStatus: status,
        responseBody,
        outcome,
        messageIds: [],
        attempts: a.job.attempts,
        error,
        replayOf: null,
        // One mark per entry: the old token, which the receiver must still accept, before an old
        // signing secret, whose signature rides along the new one's.
        oldCredential: a.oldToken === true ? "token" : a.oldSigningSecret === true ? "signing_secret" : null,
      };
    });
  };
}
