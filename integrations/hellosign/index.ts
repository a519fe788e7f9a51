import { InvalidJsonError, RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration, reply, Wild } from "../kit/index.js";
import type { BodyReader, HandlerResult, Reply } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

function parseJson(text: string): Wild {
  try {
    return new Wild(JSON.parse(text) as unknown);
  } catch {
    throw new InvalidJsonError();
  }
}

/**
 * Dropbox Sign posts the event as JSON in the `json` form field (multipart or urlencoded, sent
 * with or without a Content-Type); a JSON body is read as is.
 */
function jsonField(): BodyReader {
  return {
    kind: "hellosign-json-field",
    read: (input) => {
      const field = input.form?.["json"] ?? input.params["json"];
      if (field !== undefined) return parseJson(field);
      const text = input.rawBody.toString("utf8");
      if (text.trimStart().startsWith("{")) return parseJson(text);
      const fromBody = new URLSearchParams(text).get("json");
      if (fromBody === null) throw new RequestVariableMissingError("json");
      return parseJson(fromBody);
    },
  };
}

/** Dropbox Sign counts a callback as delivered only when the answer contains this text. */
const ACKNOWLEDGEMENT = { msg: "Hello API Event Received" };

/** "Jack", "Jack, and Jill", "A, B, and C" (Zulip's wording). */
export function recipientsText(names: readonly string[]): string {
  if (names.length === 1) return names[0] ?? "";
  return `${names
    .slice(0, -1)
    .map((n) => `${n}, `)
    .join("")}and ${names[names.length - 1] ?? ""}`;
}

function signatureRequest(p: Wild): HandlerResult {
  const request = p.get("signature_request");
  const title = request.get("title").str();
  const byStatus = new Map<string, string[]>();
  for (const signature of request.opt("signatures")?.items() ?? []) {
    const status = signature.opt("status_code")?.text() ?? "";
    const name = signature.opt("signer_name")?.text() ?? signature.opt("signer_email_address")?.text() ?? "";
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const actions: string[] = [];
  const awaiting = byStatus.get("awaiting_signature") ?? [];
  if (awaiting.length > 0) actions.push(`is awaiting the signature of ${recipientsText(awaiting)}`);
  const signed = byStatus.get("signed") ?? [];
  if (signed.length > 0) actions.push(`was just signed by ${recipientsText(signed)}`);
  return { topic: truncateTopic(title), body: `The \`${title}\` document ${actions.join(", and ")}.`.trim() };
}

/** Dropbox Sign (HelloSign): who has signed a signature request and who it is waiting for. */
export default defineIntegration({
  name: "hellosign",
  displayName: "HelloSign",
  categories: ["office-suite"],
  description:
    "Posts the signers of a Dropbox Sign (HelloSign) signature request: who signed, who is awaited.",
  body: jsonField(),
  // The event's `event_hash`: hex HMAC-SHA256 of event_time + event_type with the account's API key.
  signature: {
    kind: "payload-hmac",
    algorithm: "sha256",
    field: "event.event_hash",
    read: (p) => {
      const event = p.opt("event");
      return {
        signature: event?.opt("event_hash")?.text(),
        content: `${event?.opt("event_time")?.text() ?? ""}${event?.opt("event_type")?.text() ?? ""}`,
      };
    },
  },
  classify: ({ payload }) => (payload.has("signature_request") ? "signature_request" : "account_event"),
  events: {
    signature_request: (p): Reply => reply(ACKNOWLEDGEMENT, signatureRequest(p)),
    // The callback test and account events: acknowledged, nothing posted.
    account_event: (): Reply => reply(ACKNOWLEDGEMENT, null),
  },
  // Zulip's HelloSign integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["signature_request", "account_event"],
});
