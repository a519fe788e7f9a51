import { defineIntegration, option, parse } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** Every action Zulip's Opsgenie integration declares (custom actions are posted too). */
const ALL_EVENT_TYPES = [
  "AddTeam",
  "UnAcknowledge",
  "AddNote",
  "TestAction",
  "Close",
  "Escalate",
  "AddRecipient",
  "RemoveTags",
  "Acknowledge",
  "Delete",
  "AddTags",
  "TakeOwnership",
  "Create",
  "AssignOwnership",
] as const;
type OpsgenieEvent = (typeof ALL_EVENT_TYPES)[number];

interface OpsgenieOptions extends Record<string, unknown> {
  eu_region?: boolean;
}

function bullet(key: string, value: string): string {
  return `* **${key}**: ${value}\n`;
}

/** The alert's details, in Zulip's order: what the action changed first, then message and tags. */
function alertBody(p: Wild, euRegion: boolean): string {
  const alert = p.get("alert");
  const action = p.get("action").str();
  const tags = (alert.opt("tags")?.items() ?? []).map((t) => `\`${t.str()}\``).join(", ");
  let info = "";
  const fromAlert: [string, string][] = [
    ["note", "Note"],
    ["recipient", "Recipient"],
    ["addedTags", "Tags added"],
    ["team", "Team added"],
    ["owner", "Assigned owner"],
  ];
  for (const [field, label] of fromAlert) {
    const value = alert.opt(field);
    if (value !== undefined) info += bullet(label, value.text());
  }
  const removed = alert.opt("removedTags");
  if (removed !== undefined) info += bullet("Tags removed", removed.text());
  const message = alert.opt("message");
  if (message !== undefined) info += bullet("Message", message.text());
  if (tags !== "") info += bullet("Tags", tags);
  // The escalation is the payload's, not the alert's, and comes last.
  const escalation = p.opt("escalationName");
  if (escalation !== undefined) info += bullet("Escalation", escalation.text());

  const host = euRegion ? "app.eu.opsgenie.com" : "app.opsgenie.com";
  const integration = p.get("integrationName").str();
  const alertId = alert.get("alertId").str();
  return normalizeBody(
    `[Opsgenie alert for ${integration}](https://${host}/alert/V2#/show/${alertId}):\n` +
      `* **Type**: ${action}\n${info}`,
  );
}

/**
 * The topic: the Opsgenie integration's name (Zulip's), which holds all its alerts. For a topic
 * per alert's life (resolve_topics, edit_status_messages), the alert's alias too: Opsgenie
 * de-duplicates on the alias, so a new alert with the alias of a closed one is the same
 * trouble back, and reopens its topic.
 */
function alertTopic(p: Wild, perAlert: boolean): string {
  const integration = p.get("integrationName").str();
  if (!perAlert) return truncateTopic(integration);
  const alert = p.get("alert");
  const alias = alert.opt("alias")?.str() || alert.get("alertId").str();
  return truncateTopic(`${integration} / ${alias}`);
}

const alert: Handler<OpsgenieOptions> = (p, ctx) => ({
  topic: alertTopic(p, ctx.lifecycle),
  body: alertBody(p, ctx.options.eu_region === true),
});

/** Opsgenie: every alert action, in a topic named after the Opsgenie integration (or per alert). */
export default defineIntegration<OpsgenieOptions, OpsgenieEvent | "custom">({
  name: "opsgenie",
  displayName: "Opsgenie",
  categories: ["monitoring"],
  description:
    "Posts Opsgenie alert activity: created, acknowledged, closed, escalated, notes, tags, owners.",
  options: {
    eu_region: option("Use Opsgenie's European service region", parse.bool, { default: false }),
  },
  // The action is the event; actions Opsgenie adds later (and custom ones) are posted as "custom".
  classify: ({ payload }) => {
    const action = payload.get("action").str();
    return (ALL_EVENT_TYPES as readonly string[]).includes(action) ? action : "custom";
  },
  resolvesTopics: true,
  editsStatusMessages: true,
  // A ticket's life in one topic: closing an alert resolves its topic; a new alert with its
  // alias unresolves it; acknowledging and closing change only the alert's status.
  topicLifecycle: {
    Create: { resolves: false },
    Close: { resolves: true, statusOnly: true },
    Acknowledge: { statusOnly: true },
    UnAcknowledge: { statusOnly: true },
  },
  events: { ...Object.fromEntries(ALL_EVENT_TYPES.map((e) => [e, alert])), custom: alert } as Record<
    OpsgenieEvent | "custom",
    Handler<OpsgenieOptions>
  >,
});
