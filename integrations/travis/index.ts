import { defineIntegration, option, parse, payloadField } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";

const GOOD_STATUSES = ["Passed", "Fixed"];
const BAD_STATUSES = ["Failed", "Broken", "Still Failing", "Errored", "Canceled"];
const PENDING_STATUSES = ["Pending"];

function statusEmoji(status: string): string {
  if (GOOD_STATUSES.includes(status)) return ":thumbs_up:";
  if (BAD_STATUSES.includes(status)) return ":thumbs_down:";
  if (PENDING_STATUSES.includes(status)) return ":counterclockwise:";
  return `(No emoji specified for status '${status}'.)`;
}

/** A finished (or started) build: author, status with an emoji, and links to the changes and log. */
export function buildMessage(p: Wild): WebhookMessage {
  const status = p.get("status_message").str();
  return {
    topic: "builds",
    body:
      `Author: ${p.get("author_name").str()}\n` +
      `Build status: ${status} ${statusEmoji(status)}\n` +
      `Details: [changes](${p.get("compare_url").str()}), [build log](${p.get("build_url").str()})`,
  };
}

/**
 * Travis CI: POST /api/v1/external/travis, from `notifications: webhooks:` in .travis.yml. Travis
 * sends the build as JSON in the form field `payload`; the event is its `type` (`push`,
 * `pull_request`, `cron`, `api`), which only_events / exclude_events match.
 */
export default defineIntegration({
  name: "travis",
  displayName: "Travis",
  categories: ["continuous-integration"],
  description: "Build results from Travis CI.",
  body: payloadField("payload", { unlessJsonContentType: true }),
  options: {
    ignore_pull_requests: option("Do not post builds of pull requests", parse.bool, { default: false }),
  },
  classify: ({ payload }) => payload.get("type").str(),
  events: {
    push: (p) => buildMessage(p),
    pull_request: (p, ctx) => (ctx.options.ignore_pull_requests ? null : buildMessage(p)),
    cron: (p) => buildMessage(p),
    api: (p) => buildMessage(p),
  },
});
