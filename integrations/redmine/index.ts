import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";

/** A Redmine user as the plugin sends one: `firstname` and `lastname`. */
const nameOf = (user: Wild): string => `${user.get("firstname").str()} ${user.get("lastname").str()}`;

/** `#191 Found a bug`. */
const label = (issue: Wild): string => `#${issue.get("id").int()} ${issue.get("subject").str()}`;

/** A non-blank text quoted after a blank line, or nothing. */
function quoted(text: Wild | undefined): string {
  const t = text?.str().trim() ?? "";
  return t === "" ? "" : `\n\n~~~ quote\n${t}\n~~~`;
}

const topic = (p: Wild): string => `Issue ${label(p.at("payload", "issue"))}`;
const link = (p: Wild): string => `[${label(p.at("payload", "issue"))}](${p.at("payload", "url").str()})`;

/**
 * Redmine through the `redmine_webhook` plugin (github.com/suer/redmine_webhook): POST
 * /api/v1/external/redmine when an issue is opened or updated. The topic is the issue; an update
 * quotes its journal notes and names who wrote them (the issue's author when the journal has none).
 */
export default defineIntegration({
  name: "redmine",
  displayName: "Redmine",
  categories: ["project-management"],
  description: "Issues opened and updated in Redmine (the redmine_webhook plugin), with notes quoted.",
  classify: ({ payload }) => payload.at("payload", "action").str(),
  events: {
    opened: (p) => {
      const issue = p.at("payload", "issue");
      const assignee = issue.opt("assignee");
      const forWhom = assignee === undefined ? "" : ` for **${nameOf(assignee)}**`;
      return {
        topic: topic(p),
        body: `**${nameOf(issue.get("author"))}** opened ${link(p)}${forWhom}.${quoted(issue.opt("description"))}`,
      };
    },
    updated: (p) => {
      const journal = p.optAt("payload", "journal");
      const author = journal?.opt("author") ?? p.at("payload", "issue", "author");
      return {
        topic: topic(p),
        body: `**${nameOf(author)}** updated ${link(p)}.${quoted(journal?.opt("notes"))}`,
      };
    },
  },
});
