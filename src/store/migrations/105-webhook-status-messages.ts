import type { Migration } from "./types.js";

/**
 * The messages an incoming-webhook bot posted as status messages (`edit_status_messages=true`:
 * an incident acknowledged, an alert closed): the next status-only change of the object edits the
 * topic's newest message when it is one of these, of the same object (`statusOf`; '' for the
 * topic's own), instead of posting (src/domain/webhooks).
 */
export const webhookStatusMessages: Migration = {
  id: "105-webhook-status-messages",
  up: (t) => `
CREATE TABLE webhook_status_messages (
  message_id ${t.bigint} PRIMARY KEY,
  bot_id ${t.bigint} NOT NULL,
  object TEXT NOT NULL,
  posted_at ${t.bigint} NOT NULL
)`,
};
