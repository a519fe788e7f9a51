import { StreamDoesNotExistError, StreamIdDoesNotExistError, errorAnswer } from "../../errors.js";
import { answerText, webhookAnswer } from "./answer.js";
import type { User } from "../users/types.js";
import type { IncomingCapture } from "../deliveries/entries.js";
import type { Outcome } from "../deliveries/types.js";
import { knownSecrets } from "../../lib/redact.js";
import type { IncomingWebhookRequest, WebhookResult } from "./types.js";

/**
 * The answer written for a result or an error (the same functions the route and the error middleware
 * write with), and the log's outcome: a request the server refused (signature, payload, rate limit)
 * is rejected; one it accepted but could not post (the stream does not exist, a part was posted
 * before an error, an unexpected error) failed.
 */
function answerOf(
  result: WebhookResult | undefined,
  error: unknown,
  messageIds: readonly number[],
  failure: string | undefined,
  ignored: string | undefined,
): { status: number; body: string; outcome: Outcome; error: string | undefined } {
  if (result !== undefined) {
    const { status, body } = webhookAnswer(result);
    const text = answerText(body);
    switch (result.kind) {
      case "success":
        // Answered with success, but a message could not be posted (Zulip answers 200 then).
        return {
          status,
          body: text,
          outcome: failure !== undefined ? "failed" : result.messageIds.length > 0 ? "sent" : "ignored",
          error: failure ?? ignored,
        };
      case "unsupported":
        return { status, body: text, outcome: "ignored", error: result.error.message };
      case "handshake":
        return { status, body: text, outcome: "ignored", error: undefined };
    }
  }
  const { status, body, jsonable } = errorAnswer(error);
  if (jsonable === undefined) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { status, body: answerText(body), outcome: "failed", error: detail };
  }
  const undeliverable =
    jsonable instanceof StreamDoesNotExistError || jsonable instanceof StreamIdDoesNotExistError;
  return {
    status,
    body: answerText(body),
    outcome: status >= 500 || undeliverable || messageIds.length > 0 ? "failed" : "rejected",
    error: jsonable.message,
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
