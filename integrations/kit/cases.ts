import fs from "node:fs";
import path from "node:path";
import type { WebhookRequest } from "./stages.js";

/**
 * A recorded case: a real payload a service sends, with the message it must produce (the format of
 * ../shared/webhook-cases, copied into each integration's fixtures/cases/ folder).
 */
export interface WebhookCase {
  integration: string;
  case_id: string;
  fixture_name?: string;
  fixture: unknown;
  body_raw?: string;
  body_encoding: "raw" | "json" | "form-urlencoded" | "multipart";
  content_type: string | null;
  headers: Record<string, string>;
  url: string;
  url_path: string;
  query: Record<string, string>;
  channel?: string | null;
  auth: "api_key_query" | "http_basic" | "none";
  expect:
    "channel_message" | "no_message" | "direct_message" | "message" | "error_response" | "success_response";
  expected_topic?: string;
  expected_message?: string;
  expected_channel?: string;
  expected_status?: number;
  expected_response?: unknown;
  dm_sender?: string;
  dm_recipient?: string;
}

/** Loads every `*.json` case of a folder, sorted by file name. */
export function loadCases(dir: string): WebhookCase[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as WebhookCase);
}

/** The exact body bytes the case sends. */
export function caseBody(c: WebhookCase): Buffer {
  if (c.body_raw !== undefined) return Buffer.from(c.body_raw, "utf8");
  if (c.body_encoding === "form-urlencoded" && c.fixture !== null && typeof c.fixture === "object") {
    return Buffer.from(new URLSearchParams(c.fixture as Record<string, string>).toString(), "utf8");
  }
  if (typeof c.fixture === "string") return Buffer.from(c.fixture, "utf8");
  return Buffer.from(JSON.stringify(c.fixture), "utf8");
}

/** A multipart case's fields, as strings (what the server's body parser reads). */
export function multipartFields(c: WebhookCase): Record<string, string> {
  const fixture =
    c.fixture !== null && typeof c.fixture === "object" ? (c.fixture as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(fixture).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
}

/** The query string of the case's URL, without api_key (which the runner adds). */
export function caseQuery(c: WebhookCase): string {
  const q = c.url.includes("?") ? c.url.slice(c.url.indexOf("?") + 1) : "";
  return q
    .split("&")
    .filter((part) => part !== "" && !part.startsWith("api_key="))
    .join("&");
}

/** The case as a WebhookRequest for `dispatchWebhook` (pure tests, no server). */
export function caseRequest(c: WebhookCase): WebhookRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.headers)) headers[k.toLowerCase()] = v;
  if (c.content_type !== null) headers["content-type"] = c.content_type;
  const body = caseBody(c);
  const form =
    c.body_encoding === "form-urlencoded"
      ? Object.fromEntries(new URLSearchParams(body.toString("utf8")))
      : c.body_encoding === "multipart"
        ? multipartFields(c)
        : undefined;
  return { headers, params: { ...c.query, ...(form ?? {}) }, rawBody: body, form };
}
