import type { WebhookResult } from "./types.js";

/**
 * What the webhook route writes for a handled request (src/http/routes/external.ts), and what the
 * delivery log records as its answer: one function for both, so the log shows what was sent. Errors
 * are answered by the error middleware from `errorAnswer` (src/errors.ts), which the log uses too.
 */
export interface WebhookAnswer {
  status: number;
  headers: Record<string, string>;
  /** An object is written as JSON; a string as it is, with `contentType`. */
  body: Record<string, unknown> | string;
  contentType: string;
}

export function webhookAnswer(result: WebhookResult): WebhookAnswer {
  switch (result.kind) {
    case "success":
      return {
        status: 200,
        headers: {},
        body: { result: "success", msg: "", ...result.data },
        contentType: "application/json",
      };
    case "unsupported":
      // 200, so that no sender counts it as a failed delivery and disables the webhook (docs/compat.md).
      return { status: 200, headers: {}, body: result.error.toJSON(), contentType: "application/json" };
    case "handshake": {
      const { response } = result;
      const text = typeof response.body === "string";
      return {
        status: response.status,
        headers: response.headers ?? {},
        body: text ? response.body : JSON.stringify(response.body),
        contentType: response.contentType ?? (text ? "text/plain" : "application/json"),
      };
    }
  }
}

/** An answer's body as the bytes' text. */
export function answerText(body: Record<string, unknown> | string): string {
  return typeof body === "string" ? body : JSON.stringify(body);
}
