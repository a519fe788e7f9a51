import type { Migration } from "./types.js";

/** The realm, users and bots, API keys, custom profile fields, per-user settings, bot services. */
export const foundation: Migration = {
  id: "001-foundation",
  up: (t) => `
CREATE TABLE realms (
  id ${t.id},
  string_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  notifications_stream_id ${t.bigint},
  date_created ${t.bigint} NOT NULL
);
CREATE TABLE users (
  id ${t.id},
  realm_id ${t.bigint} NOT NULL REFERENCES realms(id),
  email TEXT NOT NULL,
  email_lower TEXT NOT NULL UNIQUE,
  full_name TEXT NOT NULL,
  short_name TEXT NOT NULL DEFAULT '',
  password_hash TEXT,
  api_key TEXT NOT NULL UNIQUE,
  role INTEGER NOT NULL DEFAULT 400,
  is_active INTEGER NOT NULL DEFAULT 1,
  is_bot INTEGER NOT NULL DEFAULT 0,
  bot_type INTEGER,
  bot_owner_id ${t.bigint} REFERENCES users(id),
  timezone TEXT NOT NULL DEFAULT '',
  date_joined_ms ${t.bigint} NOT NULL,
  default_sending_stream TEXT,
  default_events_register_stream TEXT,
  default_all_public_streams INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX users_bot_owner ON users(bot_owner_id);
CREATE TABLE user_settings (
  user_id ${t.bigint} PRIMARY KEY REFERENCES users(id),
  settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE custom_profile_fields (
  id ${t.id},
  realm_id ${t.bigint} NOT NULL REFERENCES realms(id),
  name TEXT NOT NULL,
  hint TEXT NOT NULL DEFAULT '',
  field_type INTEGER NOT NULL,
  field_data TEXT NOT NULL DEFAULT '',
  display_order INTEGER NOT NULL DEFAULT 0,
  UNIQUE (realm_id, name)
);
CREATE TABLE custom_profile_field_values (
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  field_id ${t.bigint} NOT NULL REFERENCES custom_profile_fields(id) ON DELETE CASCADE,
  value TEXT NOT NULL,
  rendered_value TEXT,
  PRIMARY KEY (user_id, field_id)
);
CREATE TABLE bot_services (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  interface INTEGER NOT NULL DEFAULT 1,
  token TEXT NOT NULL
);
CREATE INDEX bot_services_bot ON bot_services(bot_id);
CREATE TABLE bot_config (
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (bot_id, key)
);
CREATE TABLE bot_storage (
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (bot_id, key)
)`,
};
