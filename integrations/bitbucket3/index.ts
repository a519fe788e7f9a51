import { branchesOption } from "../kit/branches.js";
import { MissingHttpEventHeaderError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/**
 * Bitbucket Server / Data Center: POST /api/v1/external/bitbucket3. The event is the payload's
 * `eventKey` (the set-up test sends none and names it in `X-Event-Key: diagnostics:ping`).
 */
export default defineIntegration({
  name: "bitbucket3",
  // Zulip's name for this webhook in its error texts ("… supported by the Bitbucket3 webhook").
  displayName: "Bitbucket3",
  categories: ["version-control"],
  description:
    "Pushes, tags, branches, pull requests, reviews and comments from Bitbucket Server (Data Center).",
  eventHeader: { name: "X-Event-Key", optional: true },
  options: {
    branches: branchesOption,
  },
  // Bitbucket Server's webhook "Secret": HMAC-SHA256 of the body, hex, as "sha256=<hex>".
  signature: { kind: "hmac", header: "X-Hub-Signature", algorithm: "sha256", prefix: "sha256=" },
  classify: ({ header, payload }) => {
    const key = payload.opt("eventKey");
    if (key !== undefined) return key.str();
    if (header === undefined) throw new MissingHttpEventHeaderError("X-Event-Key");
    return header;
  },
  events: {
    "diagnostics:ping": () => m.ping(),
    "repo:comment:added": (p) => m.repoComment(p, "commented"),
    "repo:comment:edited": (p) => m.repoComment(p, "edited their comment"),
    "repo:comment:deleted": (p) => m.repoComment(p, "deleted their comment"),
    "repo:forked": (p) => m.repoForked(p),
    "repo:modified": (p) => m.repoModified(p),
    "repo:refs_changed": (p, ctx) => m.refsChanged(p, ctx.event, ctx.options.branches),
    "pr:comment:added": (p, ctx) => m.pullRequestComment(p, "commented on", ctx.customTopic !== undefined),
    "pr:comment:edited": (p, ctx) =>
      m.pullRequestComment(p, "edited their comment on", ctx.customTopic !== undefined),
    "pr:comment:deleted": (p, ctx) =>
      m.pullRequestComment(p, "deleted their comment on", ctx.customTopic !== undefined),
    "pr:declined": (p, ctx) => m.pullRequest(p, "declined", ctx.customTopic !== undefined),
    "pr:deleted": (p, ctx) => m.pullRequest(p, "deleted", ctx.customTopic !== undefined),
    "pr:merged": (p, ctx) => m.pullRequest(p, "merged", ctx.customTopic !== undefined),
    "pr:modified": (p, ctx) => m.pullRequest(p, "modified", ctx.customTopic !== undefined),
    "pr:opened": (p, ctx) => m.pullRequest(p, "opened", ctx.customTopic !== undefined),
    "pr:reviewer:approved": (p, ctx) => m.pullRequest(p, "approved", ctx.customTopic !== undefined),
    "pr:reviewer:needs_work": (p, ctx) => m.pullRequest(p, "needs_work", ctx.customTopic !== undefined),
    "pr:reviewer:updated": (p, ctx) => m.pullRequest(p, "reviewers_updated", ctx.customTopic !== undefined),
    "pr:reviewer:unapproved": (p, ctx) => m.pullRequest(p, "unapproved", ctx.customTopic !== undefined),
  },
});
