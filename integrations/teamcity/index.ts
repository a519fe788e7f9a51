import { WebhookMisconfiguredError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** A TeamCity property (`teamcityProperties: [{name, value}]`) by name. */
function property(build: Wild, name: string): string | undefined {
  const found = (build.opt("teamcityProperties")?.items() ?? []).find(
    (prop) => prop.opt("name")?.value === name,
  );
  return found?.opt("value")?.text();
}

function statusText(build: Wild): string {
  const result = build.get("buildResult").str();
  const delta = build.opt("buildResultDelta")?.text();
  const status = build.get("buildStatus").text();
  if (result === "success")
    return delta === "fixed" ? "has been fixed! :thumbs_up:" : "was successful! :thumbs_up:";
  if (result === "failure") {
    return delta === "broken"
      ? `is broken with status ${status}! :thumbs_down:`
      : `is still broken with status ${status}! :thumbs_down:`;
  }
  if (result === "running") return "has started.";
  return `has status ${result}: ${status}.`;
}

/** "Project :: Compile build 5535 was successful! :thumbs_up: See [changes](…) and [build log](…)." */
export function buildBody(build: Wild): string {
  const name = build.get("buildFullName").str();
  const url = build.get("buildStatusUrl").str();
  return (
    `${name} build ${build.get("buildNumber").text()} ${statusText(build)} ` +
    `See [changes](${url}&tab=buildChangesDiv) and [build log](${url}).`
  );
}

/** Zulip's notice to the bot's owner about a payload in another format. */
export const MISCONFIGURED_PAYLOAD_TYPE_NOTICE = `
Hi there! Your bot {bot_name} just received a TeamCity payload in a
format that Zulip doesn't recognize. This usually indicates a
configuration issue in your TeamCity webhook settings. Please make sure
that you set the **Payload Format** option to **Legacy Webhook (JSON)**
in your TeamCity webhook configuration. Contact {support_email} if you
need further help!
`;

/**
 * A build event of the "Legacy Webhook (JSON)" format. A personal build goes privately to whoever
 * triggered it, as in Zulip: the realm user whose full name is TeamCity's name of that user (or
 * whose email starts with it), else the one matching TeamCity's username; nobody matching → not
 * sent. Other payload formats (Slack, …) post nothing: the bot's owner is told (once a minute at
 * most) to choose the legacy format, and the request is answered with success, as in Zulip.
 */
export function buildMessage(p: Wild): WebhookMessage | null {
  const build = p.opt("build");
  if (build === undefined) throw new WebhookMisconfiguredError(MISCONFIGURED_PAYLOAD_TYPE_NOTICE, "", true);
  if (property(build, "env.BUILD_IS_PERSONAL") === "true") {
    const names = [build.get("triggeredBy").text().split(";")[0] ?? ""];
    const username = property(build, "teamcity.build.triggeredBy.username");
    if (username !== undefined) names.push(username);
    return { topic: "", body: `Your personal build for ${buildBody(build)}`, directTo: names };
  }
  const name = build.get("buildFullName").str();
  const branch = build.opt("branchDisplayName");
  return {
    topic: truncateTopic(branch === undefined ? name : `${name} (${branch.text()})`),
    body: buildBody(build),
  };
}

/**
 * TeamCity: POST /api/v1/external/teamcity, from the tcWebHooks plugin with the payload format
 * "Legacy Webhook (JSON)".
 */
export default defineIntegration({
  name: "teamcity",
  displayName: "TeamCity",
  categories: ["continuous-integration"],
  description: "Build results (started, successful, fixed, broken) from TeamCity.",
  classify: () => "build",
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["build"],
  events: { build: (p) => buildMessage(p) },
});
