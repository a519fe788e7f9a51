/** The incoming-webhook URL an integration page builds for the user to paste into a service. */

export interface WebhookUrlInput {
  /** The server's address as the service will reach it (`https://chat.example.com`). */
  site: string;
  integration: string;
  apiKey: string;
  /** Stream name; empty: the message goes privately to the bot's owner. */
  stream: string;
  /** Empty: the integration's own topic. */
  topic: string;
  /** Events to keep (`only_events`); empty: all. */
  onlyEvents: readonly string[];
  /** The integration's declared options that the user filled in (empty values are left out). */
  options: Readonly<Record<string, string>>;
}

export function buildWebhookUrl(input: WebhookUrlInput): string {
  const params = new URLSearchParams();
  params.set("api_key", input.apiKey === "" ? "<API_KEY>" : input.apiKey);
  if (input.stream.trim() !== "") params.set("stream", input.stream.trim());
  if (input.topic.trim() !== "") params.set("topic", input.topic.trim());
  if (input.onlyEvents.length > 0) params.set("only_events", JSON.stringify(input.onlyEvents));
  for (const [key, value] of Object.entries(input.options)) {
    if (value.trim() !== "") params.set(key, value.trim());
  }
  const site = input.site.replace(/\/+$/, "");
  // `<API_KEY>` stays readable as a placeholder.
  return `${site}/api/v1/external/${input.integration}?${params.toString().replace("%3CAPI_KEY%3E", "<API_KEY>")}`;
}

/** The `zuliprc` file of a bot, as Zulip's "Download zuliprc" gives it. */
export function zuliprc(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}

/** The bot's section of a bot server's `botserverrc` (outgoing-webhook bots carry their token). */
export function botserverrcSection(
  email: string,
  apiKey: string,
  site: string,
  token: string | undefined,
): string {
  // The section is the bot's short name, as `chat-server botserverrc` names it.
  const section = (email.split("@")[0] ?? "").replace(/-bot$/, "");
  return `[${section}]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n${token !== undefined ? `token=${token}\n` : ""}`;
}
