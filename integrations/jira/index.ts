import { AnomalousWebhookPayloadError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { Wild } from "../kit/index.js";
import type { WebhookContext, WebhookMessage } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { convertJiraMarkup, normalizeComment } from "./markup.js";

const DISPLAY_NAME = "Jira";

/** Known events that Zulip deliberately does not post. */
const IGNORED_EVENTS = [
  "attachment_created",
  "issuelink_created",
  "issuelink_deleted",
  "jira:version_released",
  "jira:worklog_updated",
  "sprint_closed",
  "sprint_started",
  "worklog_created",
  "worklog_updated",
];

/** Zulip's event names for Jira: the keys of the event table, which must list exactly these. */
type JiraEvent =
  | "jira:issue_created"
  | "jira:issue_deleted"
  | "jira:issue_updated"
  | "comment_created"
  | "comment_updated"
  | "comment_deleted";

/** Python's string.punctuation. */
const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/** A string at a path, or the fallback when any step is missing or null (Zulip's `get_in`). */
function getIn(p: Wild, keys: string[], fallback = ""): string {
  const w = p.optAt(...keys);
  return w === undefined ? fallback : w.text();
}

/** The webhook event; Jira plugins that send only a `transition` are issue updates. */
function eventType(p: Wild): string {
  const event = p.opt("webhookEvent")?.str();
  if (event !== undefined) return event;
  if (Wild.truthy(p.opt("transition"))) return "jira:issue_updated";
  throw new AnomalousWebhookPayloadError(DISPLAY_NAME);
}

function issueId(p: Wild): string {
  // Old Jira versions send comment events without the issue: its internal id is in the comment URL.
  if (!p.has("issue")) return p.get("comment").get("self").str().split("/").at(-3) ?? "";
  return p.get("issue").get("key").str();
}

function issueTitle(p: Wild): string {
  if (!p.has("issue")) return "Upgrade Jira to get the issue title here.";
  return p.get("issue").get("fields").get("summary").str();
}

function issueTopic(p: Wild): string {
  return truncateTopic(`${issueId(p)}: ${issueTitle(p)}`);
}

/** "KEY: title" linked to the issue's browse page, guessed from its REST URL. */
function issueLink(p: Wild): string {
  const id = issueId(p);
  const text = `${id}: ${issueTitle(p)}`;
  const base = /^(.*)\/rest\/api\/.*/.exec(getIn(p, ["issue", "self"]));
  return base !== null ? `[${text}](${base[1] ?? ""}/browse/${id})` : text;
}

function author(p: Wild): string {
  return getIn(p, ["user", "displayName"]);
}

/** The assignee in bold: the Zulip user with that email when there is one, else the email. */
function assigneeMention(p: Wild, ctx: WebhookContext): string {
  const email = getIn(p, ["issue", "fields", "assignee", "emailAddress"]);
  if (email === "") return "";
  return `**${ctx.userFullName(email) ?? email}**`;
}

/** What an issue update was about: Jira's `issue_event_type_name`, else guessed from the payload. */
function updateSubEvent(p: Wild): string {
  const sub = p.opt("issue_event_type_name")?.str() ?? "";
  if (sub !== "") return sub;
  if (Wild.truthy(p.opt("comment"))) return "issue_commented";
  if (Wild.truthy(p.opt("transition"))) return "issue_transited";
  return "";
}

function changeLine(field: string, from: string | undefined, to: string): string {
  return (
    `* Changed ${field}` + (from !== undefined && from !== "" ? ` from **${from}**` : "") + ` to ${to}\n`
  );
}

function issueCreated(p: Wild): string {
  return (
    `${author(p)} created ${issueLink(p)}:\n\n` +
    `* **Priority**: ${getIn(p, ["issue", "fields", "priority", "name"])}\n` +
    `* **Assignee**: ${getIn(p, ["issue", "fields", "assignee", "displayName"], "no one")}`
  );
}

function issueDeleted(p: Wild): string {
  const title = issueTitle(p);
  const punctuation = PUNCTUATION.includes(title.at(-1) ?? "") ? "" : ".";
  return `${author(p)} deleted ${issueLink(p)}${punctuation}`;
}

/** Reassignments, comments, transitions and field changes all arrive as `jira:issue_updated`. */
function issueUpdated(p: Wild, ctx: WebhookContext): string {
  const issue = issueLink(p);
  const mention = assigneeMention(p, ctx);
  const blurb = mention !== "" ? ` (assigned to ${mention})` : "";
  const sub = updateSubEvent(p);
  if (sub.includes("comment")) {
    const verb =
      sub === "issue_commented"
        ? "commented on"
        : sub === "issue_comment_edited"
          ? "edited a comment on"
          : "deleted a comment from";
    const comment = p.opt("comment");
    if (comment !== undefined && Wild.truthy(comment)) {
      const body = convertJiraMarkup(comment.get("body").str());
      return `${comment.get("author").get("displayName").str()} ${verb} ${issue}${blurb}:\n\n\`\`\` quote\n${body}\n\`\`\``;
    }
    return `${author(p)} ${verb} ${issue}${blurb}.`;
  }
  let content = `${author(p)} updated ${issue}${blurb}:\n\n`;
  const changelog = p.opt("changelog");
  if (changelog !== undefined) {
    for (const item of changelog.opt("items")?.items() ?? []) {
      const field = item.get("field").str();
      const to =
        field === "assignee" && mention !== "" ? mention : `**${item.opt("toString")?.str() ?? "None"}**`;
      content += changeLine(field, item.opt("fromString")?.str(), to);
    }
  } else if (sub === "issue_transited") {
    content += changeLine(
      "status",
      getIn(p, ["transition", "from_status"]),
      `**${getIn(p, ["transition", "to_status"])}**`,
    );
  }
  return content;
}

function commentEvent(verb: string, strike: boolean): (p: Wild) => string {
  return (p) => {
    const comment = p.get("comment");
    const body = normalizeComment(comment.get("body").str());
    return (
      `${comment.get("author").get("displayName").str()} ${verb} ${issueLink(p)}\n` +
      `\`\`\` quote\n${strike ? `~~${body}~~` : body}\n\`\`\``
    );
  };
}

/**
 * resolve_topics: Jira sets an issue's resolution when it is done, and clears it when it reopens
 * (the `resolution` item of the changelog).
 */
function resolutionChange(p: Wild): boolean | undefined {
  for (const item of p.opt("changelog")?.opt("items")?.items() ?? []) {
    if (item.get("field").str() !== "resolution") continue;
    const to = item.opt("toString");
    return to !== undefined && !to.isNull() && to.str() !== "";
  }
  return undefined;
}

const message =
  (render: (p: Wild, ctx: WebhookContext) => string) =>
  (p: Wild, ctx: WebhookContext): { topic: string; body: string } => ({
    topic: issueTopic(p),
    body: normalizeBody(render(p, ctx)),
  });

const updated = (p: Wild, ctx: WebhookContext): WebhookMessage => {
  const resolves = resolutionChange(p);
  return { ...message(issueUpdated)(p, ctx), ...(resolves === undefined ? {} : { resolves }) };
};

/** Jira: issues created, updated (fields, assignee, status, comments) and deleted; comment events. */
export default defineIntegration<Record<string, unknown>, JiraEvent>({
  name: "jira",
  displayName: DISPLAY_NAME,
  categories: ["project-management"],
  resolvesTopics: true,
  description: "Posts Jira issue changes and comments, one topic per issue.",
  needs: ["directory"],
  classify: ({ payload }) => eventType(payload),
  // Assignees are named after the realm's user with their email address (ctx.userFullName).
  events: {
    "jira:issue_created": message(issueCreated),
    "jira:issue_deleted": message(issueDeleted),
    "jira:issue_updated": updated,
    comment_created: message(commentEvent("commented on", false)),
    comment_updated: message(commentEvent("updated their comment on", false)),
    comment_deleted: message(commentEvent("deleted their comment on", true)),
  },
  ignoredEvents: IGNORED_EVENTS,
});
