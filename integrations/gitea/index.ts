import { branchesOption } from "../kit/branches.js";
import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { prOrIssueTopic, truncateTopic } from "../kit/templates/git.js";
import * as gogs from "../gogs/messages.js";
import * as m from "./messages.js";

/** The URL options Gitea's integration understands. */
export interface GiteaOptions extends Record<string, unknown> {
  branches?: string[];
}

const msg = (topic: string, body: string): { topic: string; body: string } => ({
  topic: truncateTopic(topic),
  body,
});

const repo = (p: Wild): string => p.get("repository").get("name").str();

/**
 * Gitea: POST /api/v1/external/gitea. Reads the `X-Gitea-Event` header and posts pushes, new
 * branches, pull requests, issues, issue comments and releases (see doc.md). The event key is the
 * header value alone, as in Zulip, so `only_events=["push"]` works. Gitea sends Gogs' payloads:
 * every event but pull requests is worded by Gogs' functions, as Zulip's Gitea view reuses Gogs'.
 */
export default defineIntegration<GiteaOptions>({
  name: "gitea",
  displayName: "Gitea",
  categories: ["version-control"],
  description: "Pushes, new branches, pull requests, issues, comments and releases from Gitea repositories.",
  eventHeader: "X-Gitea-Event",
  // With a secret in the bot's config (gitea_secret or webhook_secret): Gitea's hex HMAC-SHA256.
  signature: { kind: "hmac", header: "X-Gitea-Signature", algorithm: "sha256" },
  options: {
    branches: branchesOption,
  },
  // Gitea sends comments on pull requests as `issue_comment` with `X-Gitea-Event-Type:
  // pull_request_comment` (newer versions also as the event `pull_request_comment` itself).
  classify: (input) =>
    input.header === "issue_comment" && input.httpHeader("X-Gitea-Event-Type") === "pull_request_comment"
      ? "pull_request_comment"
      : (input.header ?? ""),
  events: {
    push: (p, ctx) => gogs.push(p, ctx.options.branches),
    create: (p) => gogs.create(p),
    pull_request: (p, ctx) => {
      const pr = p.get("pull_request");
      // Zulip's Gogs view names the topic after the pull request's id, not its number.
      return msg(
        prOrIssueTopic(repo(p), "PR", pr.get("id").int(), pr.get("title").str()),
        m.pullRequestBody(p, ctx.customTopic !== undefined),
      );
    },
    issues: (p, ctx) => gogs.issues(p, ctx.customTopic !== undefined),
    issue_comment: (p, ctx) => gogs.issueComment(p, ctx.customTopic !== undefined),
    pull_request_comment: (p) => {
      const { topic, body } = m.pullRequestComment(p);
      return msg(topic, body);
    },
    release: (p) => gogs.release(p),
    delete: (p) => gogs.remove(p),
  },
});
