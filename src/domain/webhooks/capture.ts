import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import type { User } from "../users/types.js";
import type { IncomingCapture } from "../deliveries/entries.js";
import type { Outcome } from "../deliveries/types.js";
import { knownSecrets } from "../../lib/redact.js";
import type { IncomingWebhookRequest, WebhookResult } from "./types.js";

/** The answer the route writes for a result or an error (status and body text), and its outcome. */
function answerOf(
  result: WebhookResult | undefined,
  error: unknown,
  messageIds: readonly number[],
  failure: string | undefined,
  ignored: string | undefined,
): { status: number; body: string; outcome: Outcome; error: string | undefined } {
  if (result !== undefined) {
    switch (result.kind) {
      case "success":
        return {
          status: 200,
          body: JSON.stringify({ result: "success", msg: "", ...result.data }),
          // Answered with success, but a message could not be posted (Zulip answers 200 then).
          outcome: failure !== undefined ? "failed" : result.messageIds.length > 0 ? "sent" : "ignored",
          error: failure ?? ignored,
        };
      case "unsupported":
        return {
          status: 200,
          body: JSON.stringify(result.error.toJSON()),
          outcome: "ignored",
          error: result.error.message,
        };
      case "handshake": {
        const { response } = result;
        return {
          status: response.status,
          body: typeof response.body === "string" ? response.body : JSON.stringify(response.body),
          outcome: "ignored",
          error: undefined,
        };
      }
    }
  }
  if (error instanceof JsonableError) {
    // A request the server refused (signature, payload, rate limit): rejected. One it accepted but
    // could not post (the stream does not exist, a part was posted before an error): failed.
    const undeliverable =
      error instanceof StreamDoesNotExistError || error instanceof StreamIdDoesNotExistError;
    return {
      status: error.httpStatus,
      body: JSON.stringify(error.toJSON()),
      outcome: error.httpStatus >= 500 || undeliverable || messageIds.length > 0 ? "failed" : "rejected",
      error: error.message,
    };
  }
  return {
    status: 500,
    body: JSON.stringify({ result: "error", msg: "Internal server error" }),
    outcome: "failed",
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  };
}

/** Everything the delivery log needs of one incoming request (cheap: references, no copies). */
export function captureOf(
  bot: User,
  integration: string,
  req: IncomingWebhookRequest,
  trace: {
    event: string | undefined;
    messageIds: readonly number[];
    failure?: string | undefined;
    ignored?: string | undefined;
    secret?: string | undefined;
    oldKey?: string | undefined;
  },
  startedMs: number,
  result: WebhookResult | undefined,
  error: unknown,
  replayOf: number | null,
): IncomingCapture {
  const answer = answerOf(result, error, trace.messageIds, trace.failure, trace.ignored);
  const q = req.url.indexOf("?", req.url.indexOf("://") + 3);
  return {
    botId: bot.id,
    createdMs: startedMs,
    integration,
    event: trace.event,
    method: req.method,
    url: q === -1 ? req.path : req.path + req.url.slice(q),
    headers: req.headers,
    rawBody: req.rawBody,
    form: req.form,
    responseStatus: answer.status,
    responseBody: answer.body,
    outcome: answer.outcome,
    messageIds: trace.messageIds,
    error: answer.error,
    replayOf,
    oldCredential: trace.oldKey === undefined ? null : "api_key",
    secrets: knownSecrets([bot.apiKey, trace.secret, trace.oldKey]),
  };
}
