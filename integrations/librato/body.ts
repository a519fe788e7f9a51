import { JsonableError } from "../../src/errors.js";
import { Wild } from "../kit/index.js";
import type { BodyInput, BodyReader } from "../kit/index.js";

/**
 * Librato sends alerts as a form field `payload` holding JSON, and chart snapshots as a JSON body
 * with `attachments` (whatever the Content-Type says). This reader returns both, as Zulip reads
 * them: `{ payload, payloadText, attachments }` (`payload` is `{}` when the field is absent).
 */
export function libratoBody(): BodyReader {
  return {
    kind: "librato",
    read: (input: BodyInput): Wild => {
      const text = input.rawBody.toString("utf8");
      const urlencoded = (input.contentType ?? "")
        .toLowerCase()
        .startsWith("application/x-www-form-urlencoded");
      const payloadText =
        input.form?.["payload"] ??
        input.params["payload"] ??
        (urlencoded ? (new URLSearchParams(text).get("payload") ?? undefined) : undefined);
      let payload: unknown = {};
      if (payloadText !== undefined) {
        try {
          payload = JSON.parse(payloadText);
        } catch {
          throw new JsonableError('Argument "payload" is not valid JSON.');
        }
      }
      let attachments: unknown = [];
      try {
        const body: unknown = JSON.parse(text);
        if (typeof body === "object" && body !== null && !Array.isArray(body)) {
          attachments = (body as Record<string, unknown>)["attachments"] ?? [];
        }
      } catch {
        attachments = [];
      }
      return new Wild({ payload, payloadText: payloadText ?? "{}", attachments });
    },
  };
}
