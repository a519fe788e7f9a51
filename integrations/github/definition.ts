import { branchesOption } from "../kit/branches.js";
import { option, parse } from "../kit/index.js";
import type { IntegrationDefinition } from "../kit/index.js";
import { GITHUB_EVENTS, IGNORED_EVENT_NAMES, classifyGitHub } from "./events.js";
import type { GitHubEvent } from "./events.js";
import { withSilentMention } from "./silent-mention.js";
import type { GitHubHandler, GitHubOptions } from "./types.js";

/** The handler of each event, from the event table. */
const events = Object.fromEntries(
  Object.entries(GITHUB_EVENTS).map(([name, entry]) => [name, withSilentMention(entry.render)]),
) as Record<GitHubEvent, GitHubHandler>;

/**
 * Everything GitHub and GitHub Sponsors share (Zulip serves both URLs with one view): event
 * classification, options and handlers, all read from the event table (events.ts).
 */
export const githubDefinition: IntegrationDefinition<GitHubOptions, GitHubEvent> = {
  name: "github",
  displayName: "GitHub",
  categories: ["version-control"],
  resolvesTopics: true,
  editsStatusMessages: true,
  description:
    "Pushes, pull requests, issues, reviews, comments, discussions, releases, CI statuses and more from GitHub repositories and organizations.",
  eventHeader: "X-GitHub-Event",
  // The realm's GitHub external accounts, for silent mentions of the sender (silent-mention.ts).
  needs: ["externalAccounts"],
  // With a secret in the bot's config (github_secret or webhook_secret): GitHub's HMAC-SHA256.
  signature: { kind: "hmac", header: "X-Hub-Signature-256", algorithm: "sha256", prefix: "sha256=" },
  classify: ({ header, payload, options }) => classifyGitHub(header, payload, options),
  options: {
    branches: branchesOption,
    ignore_private_repositories: option("Exclude notifications from private repositories", parse.bool, {
      default: false,
    }),
    include_repository_name: option("Include repository name in the notifications", parse.bool, {
      default: false,
    }),
  },
  events,
  ignoredEvents: IGNORED_EVENT_NAMES,
};
