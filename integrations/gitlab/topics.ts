import type { Wild } from "../kit/index.js";
import { branchNameFromRef, branchTopic, prOrIssueTopic } from "../kit/templates/git.js";
import { awardable, designInfo } from "./bodies.js";
import { branchName, repoName } from "./payload.js";

/**
 * Zulip's `get_topic_based_on_event`: `{repo} / {branch}` for pushes, jobs and pipelines,
 * `{repo} / MR #{iid} {title}` and `{repo} / issue #{iid} {title}` for merge requests, issues and
 * their comments, `{repo} / {environment}` for deployments, else the repository name.
 */
export function eventTopic(event: string, p: Wild, useMergeRequestTitle: boolean): string {
  const repo = repoName(p);
  if (event === "Push Hook") return branchTopic(repo, branchName(p));
  if (event === "Job Hook" || event === "Build Hook") {
    return branchTopic(p.get("repository").get("name").str(), branchName(p));
  }
  if (event === "Pipeline Hook") {
    return branchTopic(repo, branchNameFromRef(p.get("object_attributes").get("ref").str()));
  }
  if (event === "Deployment Hook") return branchTopic(repo, p.get("environment").str());
  if (event.startsWith("Merge Request Hook")) {
    const mr = p.get("object_attributes");
    const title = useMergeRequestTitle ? mr.get("title").str() : "";
    return prOrIssueTopic(repo, "MR", mr.get("iid").int(), title);
  }
  if (event.startsWith("Issue Hook") || event.startsWith("Confidential Issue Hook")) {
    const issue = p.get("object_attributes");
    return prOrIssueTopic(repo, "issue", issue.get("iid").int(), issue.get("title").str());
  }
  if (event === "Note Hook Issue" || event === "Confidential Note Hook Issue") {
    const issue = p.get("issue");
    return prOrIssueTopic(repo, "issue", issue.get("iid").int(), issue.get("title").str());
  }
  if (event === "Note Hook MergeRequest") {
    const mr = p.get("merge_request");
    const title = useMergeRequestTitle ? mr.get("title").str() : "";
    return prOrIssueTopic(repo, "MR", mr.get("iid").int(), title);
  }
  if (event === "Note Hook Snippet") {
    const snippet = p.get("snippet");
    return prOrIssueTopic(repo, "snippet", snippet.get("id").int(), snippet.get("title").str());
  }
  if (event.startsWith("Emoji Hook")) return emojiTopic(p, useMergeRequestTitle);
  if (event.endsWith("Note Hook DesignManagement::Design")) return `${repo} / design ${designInfo(p).name}`;
  return repo;
}

/**
 * An emoji reaction goes to the topic of what it was put on: the issue's, the merge request's, the
 * snippet's; a reaction to a comment goes to the topic of the commented issue, merge request or
 * snippet; anything else to the repository's.
 */
function emojiTopic(p: Wild, useMergeRequestTitle: boolean): string {
  const repo = repoName(p);
  const item = awardable(p);
  if (item.number !== null && item.type !== "comment") {
    const title = item.type === "MR" && !useMergeRequestTitle ? "" : (item.title ?? "");
    return prOrIssueTopic(repo, item.type, item.number, title);
  }
  const mr = p.opt("merge_request");
  if (mr !== undefined) {
    return prOrIssueTopic(repo, "MR", mr.get("iid").int(), useMergeRequestTitle ? mr.get("title").str() : "");
  }
  const issue = p.opt("issue") ?? p.opt("work_item");
  if (issue !== undefined)
    return prOrIssueTopic(repo, "issue", issue.get("iid").int(), issue.get("title").str());
  const snippet = p.opt("project_snippet") ?? p.opt("snippet");
  if (snippet !== undefined) {
    return prOrIssueTopic(repo, "snippet", snippet.get("id").int(), snippet.get("title").str());
  }
  return repo;
}
