import type { Migration } from "./types.js";

/**
 * Linkifiers (Zulip's RealmFilter): a regular expression with named groups and a URL template
 * (RFC 6570, `{name}`); the Markdown renderer links the text each one matches. Applied in `id` order.
 */
export const linkifiers: Migration = {
  id: "018-linkifiers",
  up: (t) => `
CREATE TABLE linkifiers (
  id ${t.id},
  pattern TEXT NOT NULL,
  url_template TEXT NOT NULL,
  UNIQUE (pattern)
)`,
};
