import type { Migration } from "./types.js";

/** Status messages are forgotten by age (STATUS_MESSAGE_RETENTION_MS, src/domain/webhooks/topic-lifecycle.ts). */
export const webhookStatusMessagesAge: Migration = {
  id: "112-webhook-status-messages-age",
  up: () => `CREATE INDEX webhook_status_messages_posted_at ON webhook_status_messages (posted_at)`,
};
