import { branchesOption } from "../kit/branches.js";
import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/** Azure DevOps: POST /api/v1/external/azuredevops. The event is the payload's `eventType`. */
export default defineIntegration({
  name: "azuredevops",
  displayName: "AzureDevOps",
  categories: ["version-control"],
  description: "Pushes and pull requests (created, updated, merged) from Azure DevOps repositories.",
  options: {
    branches: branchesOption,
  },
  classify: ({ payload }) => payload.get("eventType").str(),
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: [
    "git.push",
    "git.pullrequest.created",
    "git.pullrequest.merged",
    "git.pullrequest.updated",
  ],
  events: {
    "git.push": (p, ctx) => m.push(p, ctx.options.branches),
    "git.pullrequest.created": (p) => m.pullRequestCreated(p),
    "git.pullrequest.merged": (p) => m.pullRequestMerged(p),
    "git.pullrequest.updated": (p) => m.pullRequestUpdated(p),
  },
});
