import { branchesOption } from "../kit/branches.js";
import { defineIntegration } from "../kit/index.js";
import { repoPush } from "./messages.js";

/** RhodeCode: POST /api/v1/external/rhodecode. The event is the payload's `event.name`. */
export default defineIntegration({
  name: "rhodecode",
  displayName: "RhodeCode",
  categories: ["version-control"],
  description: "Pushes to RhodeCode repositories.",
  options: {
    branches: branchesOption,
  },
  classify: ({ payload }) => payload.get("event").get("name").str(),
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["repo-push"],
  events: {
    "repo-push": (p, ctx) => repoPush(p, ctx.options.branches),
  },
});
