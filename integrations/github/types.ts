import type { Handler, Wild } from "../kit/index.js";

/** The URL options GitHub's integration understands. */
export interface GitHubOptions extends Record<string, unknown> {
  branches?: string[];
  ignore_private_repositories?: boolean;
  include_repository_name?: boolean;
}

export type GitHubHandler = Handler<GitHubOptions>;

/**
 * Where an event comes from: the `X-GitHub-Event` header, the payload's `action` (any when absent)
 * and, when one header and action feed two events, a test of the payload.
 */
export interface GitHubSource {
  header: string;
  actions?: readonly string[];
  when?: (p: Wild) => boolean;
}

/** One row of the event table: where the event comes from and the one function that words it. */
export interface GitHubEventEntry {
  from: GitHubSource | readonly GitHubSource[];
  render: GitHubHandler;
}
