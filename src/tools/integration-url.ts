import { ChatApiClient, ChatApiError } from "../../bots/kit/index.js";
import type { ChatApiCredentials } from "../../bots/kit/index.js";
import type { IntegrationSummary } from "../domain/webhooks/integration-summary.js";
import { createOrReuseBot, INCOMING_WEBHOOK } from "./bots.js";
import type { ApiBot } from "./bots.js";

/**
 * `chat-server integration-url`: creates (or reuses) an incoming-webhook bot owned by the user of
 * the zuliprc (the organization owner's, by default) and prints the URL to paste into the service,
 * with the integration's options and events. Talks to a running server through the REST API, as
 * `create-bot` does: the integration is looked up in what that server serves (`GET
 * /api/v1/integrations`), so one loaded with `--integrations-path` is found too.
 */

/** An integration the server does not serve. */
export class UnknownIntegrationError extends Error {
  constructor(name: string) {
    super(`Unknown integration '${name}' (npx chat-server integrations lists them)`);
  }
}

/** The integration as the running server describes it (bundled or loaded from outside). */
export async function serverIntegration(rc: ChatApiCredentials, name: string): Promise<IntegrationSummary> {
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const { integrations } = (await client.call("GET", "integrations")) as unknown as {
    integrations: IntegrationSummary[];
  };
  const found = integrations.find((i) => i.name === name);
  if (found === undefined) throw new UnknownIntegrationError(name);
  return found;
}

export interface IntegrationUrlOptions {
  stream: string;
  topic?: string | undefined;
  /** The bot's short name (default: the integration's name); its email is `<name>-bot@…`. */
  bot?: string | undefined;
}

export interface IntegrationUrl {
  url: string;
  botEmail: string;
  created: boolean;
  /** Whether the stream exists now (messages to a stream that does not exist are refused). */
  streamExists: boolean;
}

function shortNameOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
}

/**
 * The integration's incoming-webhook bot of the credentials' user, created when it does not exist:
 * `<integration>-webhook-bot@…`, or `<bot>-bot@…` when `bot` names one; `flag` is the option that
 * names another bot. The `-webhook` keeps the integration's bot apart from a bot of the same name
 * that answers mentions (the helloworld integration and the bundled helloworld bot).
 */
export function integrationBot(
  client: ChatApiClient,
  integration: Pick<IntegrationSummary, "name" | "display_name">,
  bot: string | undefined,
  flag: string,
): Promise<{ bot: ApiBot; created: boolean }> {
  return createOrReuseBot(
    client,
    {
      shortName: shortNameOf(bot ?? `${integration.name}-webhook`),
      fullName: bot ?? `${integration.display_name} bot`,
      botType: INCOMING_WEBHOOK,
    },
    flag,
  );
}

/** Whether the stream exists (a webhook to one that does not is answered 200 and posts nothing). */
export async function streamExists(client: ChatApiClient, stream: string): Promise<boolean> {
  try {
    await client.call("GET", "get_stream_id", { stream });
    return true;
  } catch (err) {
    if (!(err instanceof ChatApiError)) throw err;
    return false;
  }
}

/** Creates or reuses the bot and builds the URL (the API key is in it: treat it as a secret). */
export async function integrationUrl(
  rc: ChatApiCredentials,
  integration: Pick<IntegrationSummary, "name" | "display_name">,
  opts: IntegrationUrlOptions,
): Promise<IntegrationUrl> {
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const { bot, created } = await integrationBot(client, integration, opts.bot, "--bot");
  const query = new URLSearchParams({ api_key: bot.api_key, stream: opts.stream });
  if (opts.topic !== undefined && opts.topic !== "") query.set("topic", opts.topic);
  const site = rc.site.replace(/\/+$/, "");
  return {
    url: `${site}/api/v1/external/${integration.name}?${query.toString()}`,
    botEmail: bot.email,
    created,
    streamExists: await streamExists(client, opts.stream),
  };
}

/** What the command prints: the URL, then the integration's options and events. */
export function integrationUrlText(s: IntegrationSummary, result: IntegrationUrl, site: string): string {
  const lines = [
    `${s.display_name}: paste this URL into the service's webhook settings`,
    `(${result.created ? "created" : "reusing"} the incoming-webhook bot ${result.botEmail}):`,
    "",
    `  ${result.url}`,
    "",
  ];
  if (s.event_header !== null) lines.push(`Event header: ${s.event_header}`);
  if (s.options.length > 0) {
    lines.push("Options (add to the URL as &key=value):");
    for (const o of s.options) {
      lines.push(
        `  ${o.key}: ${o.label}${o.default !== undefined ? ` (default ${JSON.stringify(o.default)})` : ""}`,
      );
    }
  }
  lines.push(
    `Events (filter with &only_events=[…] or &exclude_events=[…], wildcards allowed): ${s.events.join(", ")}`,
  );
  if (s.ignored_events.length > 0) lines.push(`Accepted and not posted: ${s.ignored_events.join(", ")}`);
  if (s.signature !== null) {
    lines.push(
      `Signature: set the service's secret as the bot's config \`${s.name}_secret\` to have ${String(s.signature["header"])} verified.`,
    );
  }
  lines.push(`Docs: ${site.replace(/\/+$/, "")}/integrations/${s.name}`);
  return lines.join("\n") + "\n";
}
