import type { UnsupportedWebhookEventTypeError } from "../../errors.js";
import type { HandshakeResponse } from "../../../integrations/kit/define-integration.js";

/** An incoming webhook request as the HTTP layer hands it to the pipeline. */
export interface IncomingWebhookRequest {
  method: string;
  path: string;
  /** The absolute URL as the sender called it (for signatures over the URL, e.g. Trello's). */
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, string>>;
  rawBody: Buffer;
  form: Readonly<Record<string, string>> | undefined;
  /** Decoded HTTP Basic credentials, when the request had them. */
  basicAuth: [string, string] | undefined;
  /**
   * The bot's API key sent outside the query string: `Authorization: Bearer <key>`, or the secret
   * path segment of `/api/v1/external/<integration>/<key>` (then `url` and `path` omit it).
   */
  key?: { via: "bearer" | "path"; key: string };
}

/** What the pipeline answers a delivery with. */
export type WebhookResult =
  /** Success: extra fields of the success response, ids of the messages sent. */
  | { kind: "success"; data: Record<string, unknown>; messageIds: number[] }
  /** A set-up handshake's answer, written as is. */
  | { kind: "handshake"; response: HandshakeResponse }
  /** An event the integration does not support: answered 200 with the error body (see docs/compat.md). */
  | { kind: "unsupported"; error: UnsupportedWebhookEventTypeError };
