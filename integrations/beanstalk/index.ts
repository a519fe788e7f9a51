import { branchesOption } from "../kit/branches.js";
import { InvalidJsonError, RequestVariableMissingError } from "../../src/errors.js";
import { Wild, defineIntegration } from "../kit/index.js";
import type { BodyReader } from "../kit/index.js";
import { gitPush, isGitPush, svnCommit } from "./messages.js";

/**
 * The JSON text of the form field `payload`, from the parsed form, the query, or a urlencoded body
 * whatever its Content-Type says (Beanstalk's requests do not always declare one).
 */
const payloadFormField: BodyReader = {
  kind: "payload-field",
  read: (input) => {
    const text =
      input.form?.["payload"] ??
      input.params["payload"] ??
      new URLSearchParams(input.rawBody.toString("utf8")).get("payload") ??
      undefined;
    if (text === undefined) throw new RequestVariableMissingError("payload");
    try {
      return new Wild(JSON.parse(text) as unknown);
    } catch {
      throw new InvalidJsonError();
    }
  },
};

/**
 * Beanstalk: POST /api/v1/external/beanstalk. Beanstalk posts the push as JSON in the form field
 * `payload` and authenticates with HTTP Basic (`https://EMAIL:API_KEY@host/…`).
 */
export default defineIntegration({
  name: "beanstalk",
  displayName: "Beanstalk",
  categories: ["version-control"],
  description: "Git pushes and Subversion commits from Beanstalk repositories.",
  body: payloadFormField,
  options: {
    branches: branchesOption,
  },
  classify: ({ payload }) => (isGitPush(payload) ? "git_push" : "svn_commit"),
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["git_push", "svn_commit"],
  events: {
    git_push: (p, ctx) => gitPush(p, ctx.options.branches),
    svn_commit: (p) => svnCommit(p),
  },
});
