import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/** Linear: issues, sub-issues, comments, projects and project status updates. */
export default defineIntegration({
  name: "linear",
  displayName: "Linear",
  categories: ["project-management"],
  description: "Posts Linear issues, sub-issues, comments, projects and project status updates.",
  // Linear signs the body with the webhook's signing secret: hex HMAC-SHA256 in Linear-Signature.
  signature: { kind: "hmac", header: "Linear-Signature", algorithm: "sha256" },
  classify: ({ payload }): string => {
    const type = payload.get("type").str();
    // Project events name who acted (`actor`, in Linear's current payloads). Zulip's integration
    // accepts project events and posts nothing; older payloads without an actor are kept silent so.
    if ((type === "Project" || type === "ProjectUpdate") && !payload.has("actor")) return type;
    if (type === "Issue") return payload.get("data").has("parentId") ? "sub_issue" : "issue";
    if (type === "Comment") return "comment";
    if (type === "Project") return "project";
    if (type === "ProjectUpdate") return "project_update";
    if (type === "IssueLabel" || type === "Cycle" || type === "Reaction") return type;
    // A type Linear added since: named with its action, as Zulip does.
    return `${type}:${payload.opt("action")?.text() ?? "???"}`;
  },
  events: {
    issue: m.issue("Issue"),
    sub_issue: m.issue("Sub-Issue"),
    comment: m.comment,
    project: m.project,
    project_update: m.projectUpdate,
  },
  ignoredEvents: ["IssueLabel", "Cycle", "Reaction", "Project", "ProjectUpdate"],
});
