import { RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration, Wild } from "../kit/index.js";
import type { BodyReader, Params } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** A parameter from the body (form fields or a JSON object) or the query string, as Zulip reads it. */
function argument(p: Wild, params: Params, name: string): string {
  const fromBody = p.isObject() ? p.opt(name)?.text() : undefined;
  const value = fromBody ?? params[name];
  if (value === undefined) throw new RequestVariableMissingError(name);
  return value;
}

/**
 * Form fields when the body was parsed as a form, else a JSON object, else the body read as
 * urlencoded (Zendesk's "Form encoded" webhooks, even when sent without a Content-Type).
 */
function formOrJson(): BodyReader {
  return {
    kind: "form-or-json",
    read: (input) => {
      if (input.form !== undefined) return new Wild(input.form);
      const text = input.rawBody.toString("utf8");
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) return new Wild(value);
      } catch {
        // Not JSON: read it as a form below.
      }
      return new Wild(Object.fromEntries(new URLSearchParams(text)));
    },
  };
}

/**
 * Zendesk triggers with a message template: the trigger sends `ticket_title`, `ticket_id` and the
 * `message` the administrator wrote with Zendesk placeholders.
 */
export default defineIntegration({
  name: "zendesk",
  displayName: "Zendesk",
  categories: ["customer-support"],
  description: "Posts the message of a Zendesk trigger to a topic per ticket.",
  body: formOrJson(),
  // Zendesk webhooks sign "<X-Zendesk-Webhook-Signature-Timestamp><body>": base64 HMAC-SHA256.
  signature: {
    kind: "hmac",
    header: "X-Zendesk-Webhook-Signature",
    algorithm: "sha256",
    encoding: "base64",
    signedContent: (req) =>
      Buffer.concat([Buffer.from(req.header("X-Zendesk-Webhook-Signature-Timestamp") ?? ""), req.rawBody]),
  },
  events: {
    ticket: (p, ctx) => ({
      topic: truncateTopic(
        `#${argument(p, ctx.params, "ticket_id")}: ${argument(p, ctx.params, "ticket_title")}`,
      ),
      body: normalizeBody(argument(p, ctx.params, "message")),
    }),
  },
  // Zulip's Zendesk integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["ticket"],
});
