import crypto from "node:crypto";
import { RequestVariableMissingError, UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration, text } from "../kit/index.js";
import type { Handler, Params, SignedRequest, WebhookContext } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** A parameter from the query string or form; a JSON body's field of the same name as a fallback. */
function field(params: Params, rawBody: string, name: string): string {
  const fromParams = params[name];
  if (fromParams !== undefined) return fromParams;
  try {
    const body: unknown = JSON.parse(rawBody);
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const v = (body as Record<string, unknown>)[name];
      if (typeof v === "string" || typeof v === "number") return String(v);
    }
  } catch {
    // Not JSON: Transifex's classic webhooks send form fields.
  }
  throw new RequestVariableMissingError(name);
}

function message(done: string): Handler {
  return (_p, ctx: WebhookContext) => ({
    topic: truncateTopic(
      `${field(ctx.params, ctx.rawBody, "project")} in ${field(ctx.params, ctx.rawBody, "language")}`,
    ),
    body: `Resource ${field(ctx.params, ctx.rawBody, "resource")} fully ${done}.`,
  });
}

/**
 * Transifex's signature (v2): base64 HMAC-SHA256 of "POST", the URL it called (X-TX-Url), its Date
 * header and the hex MD5 of the body, joined with newlines.
 */
export function signedContent(req: SignedRequest): string {
  const md5 = crypto.createHash("md5").update(req.rawBody).digest("hex");
  return ["POST", req.header("X-TX-Url") ?? req.url, req.header("Date") ?? "", md5].join("\n");
}

/**
 * Transifex: POST /api/v1/external/transifex from a project's webhook. Transifex sends `project`,
 * `resource`, `language` and `event` (`translation_completed` → event `translated`,
 * `review_completed` → `review`).
 */
export default defineIntegration({
  name: "transifex",
  displayName: "Transifex",
  categories: ["misc"],
  description: "Resources fully translated or reviewed in a Transifex project.",
  body: text(),
  signature: {
    kind: "hmac",
    header: "X-TX-Signature-V2",
    algorithm: "sha256",
    encoding: "base64",
    signedContent,
  },
  classify: ({ params, payload }) => {
    const event = field(params, payload.str(), "event");
    if (event === "translation_completed") return "translated";
    if (event === "review_completed") return "review";
    throw new UnsupportedWebhookEventTypeError(event, "Transifex");
  },
  events: { translated: message("translated"), review: message("reviewed") },
});
