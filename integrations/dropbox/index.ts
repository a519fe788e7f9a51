import { RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration, text } from "../kit/index.js";
import type { HandshakeRequest, HandshakeResponse } from "../kit/index.js";

/**
 * Dropbox's verification request: `GET ?challenge=…` must be echoed back as plain text (with
 * `X-Content-Type-Options: nosniff`, as Dropbox's docs ask); a GET without it is Zulip's 400.
 */
export function dropboxHandshake(req: HandshakeRequest): HandshakeResponse | undefined {
  if (req.method === "POST") return undefined;
  const challenge = req.params["challenge"];
  if (challenge === undefined) throw new RequestVariableMissingError("challenge");
  return {
    status: 200,
    contentType: "text/plain; charset=UTF-8",
    body: challenge,
    headers: { "X-Content-Type-Options": "nosniff" },
  };
}

/**
 * Dropbox app webhooks: a notification that files changed in the accounts of the app's users
 * (Dropbox says only that; the app would call its API to learn what changed). Zulip passes no
 * event type, so filters never drop it.
 */
export default defineIntegration({
  name: "dropbox",
  displayName: "Dropbox",
  categories: ["productivity"],
  description:
    "Posts when files change in a Dropbox app's accounts; answers Dropbox's verification challenge.",
  // The notification's content (account ids) is not shown, so it is read as text and never rejected.
  body: text(),
  signature: { kind: "hmac", header: "X-Dropbox-Signature", algorithm: "sha256", encoding: "hex" },
  handshake: dropboxHandshake,
  events: { file_updated: () => ({ topic: "Dropbox", body: "File has been updated on Dropbox!" }) },
  unfilteredEvents: ["file_updated"],
});
