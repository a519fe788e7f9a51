import { shortcutIntegration } from "../clubhouse/index.js";

/**
 * Shortcut: POST /api/v1/external/shortcut from a workspace's outgoing webhook (Settings →
 * Integrations → Webhooks). The service Clubhouse became; the same payloads and messages.
 */
export default shortcutIntegration(
  "shortcut",
  "Shortcut",
  "Stories, epics, tasks, comments and linked GitHub PRs and branches in Shortcut.",
);
