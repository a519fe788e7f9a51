import { branchesOption, isBranchNotifiable } from "../kit/branches.js";
import { defineIntegration, option, parse } from "../kit/index.js";
import type { Handler, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";
import {
  buildBody,
  commentedCommitBody,
  commentedDesignBody,
  commentedIssueBody,
  commentedMergeRequestBody,
  commentedSnippetBody,
  deploymentBody,
  emojiBody,
  featureFlagBody,
  issueCreatedBody,
  issueEventBody,
  mergeRequestEventBody,
  mergeRequestOpenOrUpdatedBody,
  mergeRequestUpdatedBody,
  pipelineBody,
  pushBody,
  releaseBody,
  resourceAccessTokenBody,
  tagPushBody,
  testHookBody,
  wikiPageBody,
} from "./bodies.js";
import type { BodyFunction } from "./bodies.js";
import { branchName, projectHomepage, repoName } from "./payload.js";
import { eventTopic } from "./topics.js";

/** Zulip's EVENT_FUNCTION_MAPPER: the event name ("header + action") to the body it posts. */
const BODIES = {
  "Push Hook": pushBody,
  "Tag Push Hook": tagPushBody,
  "Test Hook": testHookBody,
  "Issue Hook open": issueCreatedBody,
  "Issue Hook close": issueEventBody("closed"),
  "Issue Hook reopen": issueEventBody("reopened"),
  "Issue Hook update": issueEventBody("updated"),
  "Confidential Issue Hook open": issueCreatedBody,
  "Confidential Issue Hook close": issueEventBody("closed"),
  "Confidential Issue Hook reopen": issueEventBody("reopened"),
  "Confidential Issue Hook update": issueEventBody("updated"),
  "Note Hook Commit": commentedCommitBody,
  "Note Hook MergeRequest": commentedMergeRequestBody,
  "Note Hook Issue": commentedIssueBody,
  "Confidential Note Hook Issue": commentedIssueBody,
  "Note Hook DesignManagement::Design": commentedDesignBody,
  "Confidential Note Hook DesignManagement::Design": commentedDesignBody,
  "Note Hook Snippet": commentedSnippetBody,
  "Merge Request Hook approved": mergeRequestEventBody("approved"),
  "Merge Request Hook unapproved": mergeRequestEventBody("unapproved"),
  "Merge Request Hook approval": mergeRequestEventBody("added their approval for"),
  "Merge Request Hook unapproval": mergeRequestEventBody("removed their approval for"),
  "Merge Request Hook open": mergeRequestOpenOrUpdatedBody("created"),
  "Merge Request Hook update": mergeRequestUpdatedBody,
  "Merge Request Hook merge": mergeRequestEventBody("merged"),
  "Merge Request Hook close": mergeRequestEventBody("closed"),
  "Merge Request Hook reopen": mergeRequestEventBody("reopened"),
  "Wiki Page Hook create": wikiPageBody("created"),
  "Wiki Page Hook update": wikiPageBody("updated"),
  "Job Hook": buildBody,
  "Build Hook": buildBody,
  "Pipeline Hook": pipelineBody,
  "Release Hook": releaseBody,
  "Feature Flag Hook": featureFlagBody,
  "Resource Access Token Hook": resourceAccessTokenBody,
  "Deployment Hook": deploymentBody,
  "Emoji Hook award": emojiBody,
  "Emoji Hook revoke": emojiBody,
} satisfies Record<string, BodyFunction>;

/** GitLab's event names (Zulip's): the keys of the event table. */
type GitlabEvent = keyof typeof BODIES;

/** Every event name GitLab can produce here: the values `only_events` / `exclude_events` match. */
export const GITLAB_EVENT_TYPES = Object.keys(BODIES) as GitlabEvent[];

/** Headers whose event name gains the payload's `object_attributes.action` ("Issue Hook open"). */
const ACTION_EVENTS = ["Confidential Issue Hook", "Issue Hook", "Merge Request Hook", "Wiki Page Hook"];
/** Headers whose event name gains the commented object's type ("Note Hook MergeRequest"). */
const NOTE_EVENTS = ["Confidential Note Hook", "Note Hook"];

/** Python's `str.title()` on ASCII words: "merge request" → "Merge Request". */
function titleCase(text: string): string {
  return text.replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

/**
 * Zulip's `get_event`: the X-GitLab-Event header (System Hooks are renamed after the payload's
 * `event_name`/`object_kind`), plus the action for issues, merge requests and wiki pages, or the
 * noteable type for comments.
 */
export function gitlabEventName(header: string | undefined, p: Wild): string {
  let event = header ?? "";
  if (event === "System Hook") {
    const name = (p.opt("event_name") ?? p.get("object_kind")).str();
    event = `${titleCase((name.split("__")[0] ?? name).replaceAll("_", " "))} Hook`;
  }
  if (ACTION_EVENTS.includes(event)) {
    const action = p.get("object_attributes").opt("action")?.str() ?? "open";
    return `${event} ${action}`;
  }
  if (event === "Emoji Hook") return `${event} ${p.get("event_type").str()}`;
  if (NOTE_EVENTS.includes(event)) {
    return `${event} ${p.get("object_attributes").get("noteable_type").str()}`;
  }
  return event;
}

/** Event name of a delivery skipped because its project is private (`ignore_private_projects`). */
export const PRIVATE_PROJECT_EVENT = "private_project";

/** GitLab's `visibility_level` 0 (or `visibility: "private"`): the project is private. */
function isPrivateProject(p: Wild): boolean {
  const project = p.isObject() ? p.opt("project") : undefined;
  if (project === undefined || !project.isObject()) return false;
  return project.opt("visibility_level")?.value === 0 || project.opt("visibility")?.value === "private";
}

interface GitlabOptions extends Record<string, unknown> {
  branches?: string[];
  ignore_private_projects?: boolean;
  use_merge_request_title?: boolean;
}

/** resolve_topics: the events that close (true) or reopen (false) an issue's or merge request's topic. */
const RESOLVES: Partial<Record<GitlabEvent, boolean>> = {
  "Issue Hook close": true,
  "Confidential Issue Hook close": true,
  "Merge Request Hook merge": true,
  "Merge Request Hook close": true,
  "Issue Hook reopen": false,
  "Confidential Issue Hook reopen": false,
  "Merge Request Hook reopen": false,
};

/** One handler per event name: the body, the project link when the URL sets a topic, the topic. */
function handlerFor(event: string, body: BodyFunction): Handler<GitlabOptions> {
  return (p, ctx) => {
    const branches = ctx.options.branches;
    if (event === "Push Hook" && !isBranchNotifiable(branchName(p), branches)) return null;
    let text = body(p, ctx.customTopic !== undefined);
    if (ctx.customTopic !== undefined) {
      text = `[[${repoName(p)}](${projectHomepage(p)})] ${text}`;
    }
    const useMrTitle = ctx.options.use_merge_request_title ?? true;
    const resolves = RESOLVES[event as GitlabEvent];
    return {
      topic: truncateTopic(eventTopic(event, p, useMrTitle).trim()),
      body: text.trimEnd(),
      ...(resolves === undefined ? {} : { resolves }),
    };
  };
}

export default defineIntegration<GitlabOptions, GitlabEvent>({
  name: "gitlab",
  displayName: "GitLab",
  categories: ["version-control"],
  resolvesTopics: true,
  description:
    "Posts GitLab pushes, tags, issues, merge requests, comments, CI jobs and pipelines, wiki pages, releases, feature flags and deployments.",
  eventHeader: "X-GitLab-Event",
  // With a secret in the bot's config (gitlab_secret or webhook_secret): GitLab's secret token.
  signature: { kind: "token", header: "X-Gitlab-Token" },
  classify: ({ header, payload, options }) =>
    options.ignore_private_projects === true && isPrivateProject(payload)
      ? PRIVATE_PROJECT_EVENT
      : gitlabEventName(header, payload),
  ignoredEvents: [PRIVATE_PROJECT_EVENT],
  options: {
    branches: branchesOption,
    ignore_private_projects: option("Exclude notifications from private projects", parse.bool, {
      default: false,
    }),
    use_merge_request_title: option("Put the merge request's title in its topic", parse.bool, {
      default: true,
    }),
  },
  events: Object.fromEntries(
    Object.entries(BODIES).map(([event, body]) => [event, handlerFor(event, body)]),
  ) as Record<GitlabEvent, Handler<GitlabOptions>>,
});
