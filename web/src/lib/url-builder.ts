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
  /**
   * Where the bot's key goes: `query` (`?api_key=`, the default: any service), `header` (kept out of
   * the URL: send {@link authorizationHeader} with each request, for services that can set headers),
   * `path` (`/external/<integration>/<key>`, for services that take only a URL).
   */
  keyIn?: "query" | "header" | "path";
}

/** The header that carries the bot's key when the URL leaves it out (`keyIn: "header"`). */
export function authorizationHeader(apiKey: string): string {
  return `Authorization: Bearer ${apiKey === "" ? "<API_KEY>" : apiKey}`;
}

export function buildWebhookUrl(input: WebhookUrlInput): string {
  const params = new URLSearchParams();
  const key = input.apiKey === "" ? "<API_KEY>" : input.apiKey;
  const keyIn = input.keyIn ?? "query";
  if (keyIn === "query") params.set("api_key", key);
  if (input.stream.trim() !== "") params.set("stream", input.stream.trim());
  if (input.topic.trim() !== "") params.set("topic", input.topic.trim());
  if (input.onlyEvents.length > 0) params.set("only_events", JSON.stringify(input.onlyEvents));
  for (const [key, value] of Object.entries(input.options)) {
    if (value.trim() !== "") params.set(key, value.trim());
  }
  const site = input.site.replace(/\/+$/, "");
  // `<API_KEY>` stays readable as a placeholder.
  const path = `${site}/api/v1/external/${input.integration}${keyIn === "path" ? `/${key}` : ""}`;
  const query = params.toString().replace("%3CAPI_KEY%3E", "<API_KEY>");
  return query === "" ? path : `${path}?${query}`;
}

/** The `zuliprc` file of a bot, as Zulip's "Download zuliprc" gives it. */
export function zuliprc(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}

/**
 * The bot's section of a bot server's `botserverrc` (outgoing-webhook bots carry their token). The
 * section's name is the bundled bot the bot server runs for it (`helloworld`, `xkcd`, …).
 */
export function botserverrcSection(
  botName: string,
  email: string,
  apiKey: string,
  site: string,
  token: string | undefined,
): string {
  return `[${botName}]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n${token !== undefined ? `token=${token}\n` : ""}`;
}
