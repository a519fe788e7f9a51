import type { Migration } from "./types.js";

/**
 * Invitation links (Zulip's MultiuseInvite, plus single-use links that need no email): only the
 * SHA-256 of a link's key is stored, so the link is shown once, when it is made. `max_uses` is 1
 * for a single-use link and NULL for any number; `expires_at` (ms) NULL never expires. The
 * realm's `invite_to_realm_policy` (who may invite) lives in `realm_invite_policy`.
 */
export const invites: Migration = {
  id: "060-invites",
  up: (t) => `
CREATE TABLE invites (
  id ${t.id},
  realm_id ${t.bigint} NOT NULL REFERENCES realms(id),
  referrer_id ${t.bigint} NOT NULL REFERENCES users(id),
  key_hash TEXT NOT NULL UNIQUE,
  invite_as INTEGER NOT NULL,
  created_at ${t.bigint} NOT NULL,
  expires_at ${t.bigint},
  max_uses INTEGER,
  uses INTEGER NOT NULL DEFAULT 0,
  revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX invites_realm ON invites (realm_id, created_at);
CREATE TABLE realm_invite_policy (
  realm_id ${t.bigint} PRIMARY KEY REFERENCES realms(id),
  policy INTEGER NOT NULL
)`,
};
