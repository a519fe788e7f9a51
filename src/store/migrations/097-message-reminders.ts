import type { Migration } from "./types.js";

/**
 * Message reminders (Zulip's ScheduledMessage with delivery_type REMIND, feature level 381): a
 * scheduled message with the id of the message it reminds of; the Notification Bot sends it.
 */
export const messageReminders: Migration = {
  id: "097-message-reminders",
  up: (t) => `ALTER TABLE scheduled_messages ADD COLUMN reminder_target_message_id ${t.bigint}`,
};
