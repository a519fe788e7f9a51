import { defineIntegration } from "../kit/index.js";
import { githubDefinition } from "./definition.js";

/**
 * GitHub: POST /api/v1/external/github. Reads the `X-GitHub-Event` header and posts pushes, pull
 * requests, issues, reviews, comments, discussions, releases, CI results and organization changes,
 * worded as Zulip's GitHub integration words them (see doc.md).
 */
export default defineIntegration(githubDefinition);

/** GitHub Sponsors (POST /api/v1/external/githubsponsors) shares this folder, as in Zulip. */
export { default as githubsponsors } from "./sponsors.js";
