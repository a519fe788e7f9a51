import { defineIntegration, option, parse, payloadField } from "../kit/index.js";
import { gitPush, isGitPush, svnCommit } from "./messages.js";

/**
 * Beanstalk: POST /api/v1/external/beanstalk. Beanstalk posts the push as JSON in the form field
 * `payload` and authenticates with HTTP Basic (`https://EMAIL:API_KEY@host/…`).
 */
export default defineIntegration({
  name: "beanstalk",
  displayName: "Beanstalk",
  categories: ["version-control"],
  description: "Git pushes and Subversion commits from Beanstalk repositories.",
  body: payloadField("payload"),
  options: {
    branches: option("Only notify for pushes to these branches (comma-separated)", parse.string),
  },
  classify: ({ payload }) => (isGitPush(payload) ? "git_push" : "svn_commit"),
  events: {
    git_push: (p, ctx) => gitPush(p, ctx.options.branches),
    svn_commit: (p) => svnCommit(p),
  },
});
