import type { Migration } from "./types.js";

/**
 * Mobile push tokens the apps register (POST /users/me/apns_device_token, /android_gcm_reg_id).
 * Stored so the routes behave as Zulip's do; this server sends no push notifications (docs/compat.md).
 * `kind` is Zulip's PushDeviceToken kind: 1 APNs, 2 FCM.
 */
export const pushDeviceTokens: Migration = {
  id: "045-push-device-tokens",
  up: (t) => `
CREATE TABLE push_device_tokens (
  user_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind INTEGER NOT NULL,
  token TEXT NOT NULL,
  app_id TEXT,
  last_updated ${t.bigint} NOT NULL,
  PRIMARY KEY (user_id, kind, token)
)`,
};
