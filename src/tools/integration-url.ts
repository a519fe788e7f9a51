import { ChatApiClient, ChatApiError } from "../../bots/kit/index.js";
import type { ChatApiCredentials } from "../../bots/kit/index.js";
import type { AnyIntegration } from "../../integrations/kit/index.js";
import { integrationSummary } from "../domain/webhooks/integration-summary.js";

/**
 * `chat-server integration-url`: creates (or reuses) an incoming-webhook bot owned by the user of
 * the zuliprc (the organization owner's, by default) and prints the URL to paste into the service,
 * with the integration's options and events. Talks to a running server through the REST API, as
 * `create-bot` does.
 */

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
}

interface ApiBot {
  email: string;
  api_key: string;
  bot_type: number;
  is_active?: boolean;
}

const INCOMING_WEBHOOK = 2;

function shortNameOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
}

async function ownedIncomingBot(client: ChatApiClient, shortName: string): Promise<ApiBot | undefined> {
  const res = await client.call("GET", "bots");
  const bots = (res["bots"] ?? []) as ApiBot[];
  return bots.find(
    (b) =>
      b.email.split("@")[0] === `${shortName}-bot` &&
      b.bot_type === INCOMING_WEBHOOK &&
      b.is_active !== false,
  );
}

/** Creates or reuses the bot and builds the URL (the API key is in it: treat it as a secret). */
export async function integrationUrl(
  rc: ChatApiCredentials,
  integration: AnyIntegration,
  opts: IntegrationUrlOptions,
): Promise<IntegrationUrl> {
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const shortName = shortNameOf(opts.bot ?? integration.name);
  let bot = await ownedIncomingBot(client, shortName);
  let created = false;
  if (bot === undefined) {
    try {
      const res = await client.call("POST", "bots", {
        full_name: opts.bot ?? `${integration.displayName} bot`,
        short_name: shortName,
        bot_type: INCOMING_WEBHOOK,
      });
      bot = { email: res["email"] as string, api_key: res["api_key"] as string, bot_type: INCOMING_WEBHOOK };
      created = true;
    } catch (err) {
      if (err instanceof ChatApiError && err.message === "Username already in use") {
        throw new Error(
          `The bot ${shortName}-bot exists but is not an active incoming-webhook bot you own; pass another --bot`,
        );
      }
      throw err;
    }
  }
  const query = new URLSearchParams({ api_key: bot.api_key, stream: opts.stream });
  if (opts.topic !== undefined && opts.topic !== "") query.set("topic", opts.topic);
  const site = rc.site.replace(/\/+$/, "");
  return {
    url: `${site}/api/v1/external/${integration.name}?${query.toString()}`,
    botEmail: bot.email,
    created,
  };
}

/** What the command prints: the URL, then the integration's options and events. */
export function integrationUrlText(integration: AnyIntegration, result: IntegrationUrl): string {
  const s = integrationSummary(integration);
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
      `Signature: set the service's secret as the bot's config \`${integration.name}_secret\` to have ${String(s.signature["header"])} verified.`,
    );
  }
  lines.push(`Docs: integrations/${integration.name}/doc.md`);
  return lines.join("\n") + "\n";
}
