import { defineIntegration, option, parse } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import {
  branchNameFromRef,
  branchTopic,
  prOrIssueTopic,
  releaseTopic,
  truncateTopic,
} from "../kit/templates/git.js";
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

function issueTopic(p: Wild): string {
  const issue = p.get("issue");
  return prOrIssueTopic(repo(p), "issue", issue.get("number").int(), issue.get("title").str());
}

/**
 * Gitea: POST /api/v1/external/gitea. Reads the `X-Gitea-Event` header and posts pushes, new
 * branches, pull requests, issues, issue comments and releases (see doc.md). The event key is the
 * header value alone, as in Zulip, so `only_events=["push"]` works.
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
    branches: option("Only notify for pushes to these branches (comma-separated)", parse.csvList),
  },
  events: {
    push: (p, ctx) => {
      const branch = branchNameFromRef(p.get("ref").str());
      const only = ctx.options.branches;
      if (only !== undefined && !only.includes(branch)) return null;
      return msg(branchTopic(repo(p), branch), m.pushBody(p));
    },
    create: (p) => msg(branchTopic(repo(p), p.get("ref").str()), m.createBody(p)),
    pull_request: (p, ctx) => {
      const pr = p.get("pull_request");
      // Zulip's Gogs view names the topic after the pull request's id, not its number.
      return msg(
        prOrIssueTopic(repo(p), "PR", pr.get("id").int(), pr.get("title").str()),
        m.pullRequestBody(p, ctx.customTopic !== undefined),
      );
    },
    issues: (p, ctx) => msg(issueTopic(p), m.issuesBody(p, ctx.customTopic !== undefined)),
    issue_comment: (p, ctx) => msg(issueTopic(p), m.issueCommentBody(p, ctx.customTopic !== undefined)),
    release: (p) => {
      const release = p.get("release");
      return msg(
        releaseTopic(repo(p), release.get("tag_name").str(), release.get("name").str()),
        m.releaseBody(p),
      );
    },
  },
});
