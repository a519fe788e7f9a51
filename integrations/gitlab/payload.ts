import type { Wild } from "../kit/index.js";
import { branchNameFromRef, tagNameFromRef } from "../kit/templates/git.js";

/**
 * Readers shared by GitLab's bodies and topics. Most hooks carry a `project`; Job (Build) Hook
 * payloads only have a `repository` and group access-token events a `group`, so both readers
 * fall back to those.
 */
export function repoName(p: Wild): string {
  const project = p.opt("project");
  if (project !== undefined) return project.get("name").str();
  const group = p.opt("group");
  if (group !== undefined && !p.has("repository")) return group.get("group_name").str();
  return p.get("repository").get("name").str();
}

/** The project's web page (`project.web_url`, else `repository.homepage`). */
export function projectHomepage(p: Wild): string {
  const project = p.opt("project");
  if (project !== undefined) return project.get("web_url").str();
  const group = p.opt("group");
  if (group !== undefined && !p.has("repository")) return group.opt("group_url")?.str() ?? "";
  return p.get("repository").get("homepage").str();
}

/** The pusher of a push or tag push (`user_name`). */
export function pusherName(p: Wild): string {
  return p.get("user_name").str();
}

/** The author of an issue, merge request, comment, pipeline… event (`user.name`). */
export function userName(p: Wild): string {
  return p.get("user").get("name").str();
}

/** `ref` without `refs/heads/`. */
export function branchName(p: Wild): string {
  return branchNameFromRef(p.get("ref").str());
}

/** `ref` without `refs/tags/`. */
export function tagName(p: Wild): string {
  return tagNameFromRef(p.get("ref").str());
}

/** A string field that may be absent, null or empty (Python's truthiness). */
export function optText(w: Wild | undefined, key: string): string | undefined {
  const v = w?.opt(key);
  if (v === undefined) return undefined;
  const s = v.str();
  return s === "" ? undefined : s;
}
