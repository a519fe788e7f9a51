import { branchesOption } from "../kit/branches.js";
import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/**
 * Gogs: POST /api/v1/external/gogs. The event is the `X-Gogs-Event` header; deleted refs, pushes, new
 * branches, pull requests, issues, issue comments and releases are posted (see doc.md).
 */
export default defineIntegration({
  name: "gogs",
  displayName: "Gogs",
  categories: ["version-control"],
  description: "Pushes, new branches, pull requests, issues, comments and releases from Gogs repositories.",
  eventHeader: "X-Gogs-Event",
  options: {
    branches: branchesOption,
  },
  // Gogs' webhook "Secret": X-Gogs-Signature is the hex HMAC-SHA256 of the body.
  signature: { kind: "hmac", header: "X-Gogs-Signature", algorithm: "sha256" },
  events: {
    push: (p, ctx) => m.push(p, ctx.options.branches),
    create: (p) => m.create(p),
    pull_request: (p, ctx) => m.pullRequest(p, ctx.customTopic !== undefined),
    issues: (p, ctx) => m.issues(p, ctx.customTopic !== undefined),
    issue_comment: (p, ctx) => m.issueComment(p, ctx.customTopic !== undefined),
    release: (p) => m.release(p),
    delete: (p) => m.remove(p),
  },
});
