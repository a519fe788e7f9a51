import type { Migration } from "./types.js";

/** The realm's moderation-request channel (Zulip's Realm.moderation_request_channel): where message reports go. */
export const moderationRequestChannel: Migration = {
  id: "096-moderation-request-channel",
  up: (t) => `ALTER TABLE realms ADD COLUMN moderation_request_channel_id ${t.bigint}`,
};
