import { JsonableError, RequestVariableMissingError } from "../../src/errors.js";
import { ServiceApiError, Wild, defineIntegration } from "../kit/index.js";
import type {
  HandshakeRequest,
  HandshakeResponse,
  Params,
  WebhookContext,
  WebhookMessage,
} from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";
import { slackBody } from "./body.js";
import {
  convertSlackFormatting,
  convertSlackUserAndChannelMentions,
  convertSlackWorkspaceMentions,
  replaceLinks,
  slackUserMentionIds,
} from "./markdown.js";

const DEFAULT_TOPIC = "Message from Slack";

/** Slack's Web API, as Zulip calls it. */
const SLACK_API = "https://slack.com/api";

/** How messages map to Zulip: one topic (undefined), a topic per channel ("1"), a stream per channel ("0"). */
type ChannelMapping = "0" | "1" | undefined;

/**
 * `channels_map_to_topics` (or Zulip's URL preset `mapping=channels`, which means `0`); any other
 * value is Zulip's error.
 */
function channelMapping(params: Params): ChannelMapping {
  const mapping = params["channels_map_to_topics"] ?? (params["mapping"] === "channels" ? "0" : undefined);
  if (mapping !== undefined && mapping !== "0" && mapping !== "1") {
    throw new JsonableError("Error: channels_map_to_topics parameter other than 0 or 1");
  }
  return mapping;
}

/**
 * `channels_map_to_topics`: absent → one topic, "Message from Slack"; `1` → a topic per Slack
 * channel ("channel: <name>"); `0` → a stream named after the Slack channel, topic "Message from
 * Slack", as Zulip does.
 */
function slackMessage(content: string, channel: string, mapping: ChannelMapping): WebhookMessage {
  const body = normalizeBody(content);
  if (mapping === "0") return { topic: DEFAULT_TOPIC, body, stream: channel };
  return { topic: mapping === "1" ? `channel: ${channel}` : DEFAULT_TOPIC, body };
}

/** Names read from Slack's Web API; undefined when the lookup failed (the caller falls back). */
interface SlackApi {
  /** `users.info`: the user's `real_name`. */
  userName(id: string): Promise<string | undefined>;
  /** `conversations.info`: the channel's `name`. */
  channelName(id: string): Promise<string | undefined>;
}

/**
 * One GET of Slack's Web API (`<method>?<param>=<id>`, the token as a Bearer token, as Zulip sends
 * it): `<object>.<field>` of an `ok` answer, or undefined when the call fails (ServiceApiError),
 * Slack answers `ok: false` (a bad token, a missing scope, an unknown id) or the field is not a
 * non-empty string. The handler logs nothing; the server logs a failed call by its URL, which
 * holds no secret (the token is only in the header).
 */
async function slackLookup(
  ctx: WebhookContext,
  token: string,
  call: { method: string; param: string; id: string; object: string; field: string },
): Promise<string | undefined> {
  const url = `${SLACK_API}/${call.method}?${call.param}=${encodeURIComponent(call.id)}`;
  let answer: unknown;
  try {
    answer = await ctx.fetchJson(url, { headers: { Authorization: `Bearer ${token}` } });
  } catch (err) {
    if (err instanceof ServiceApiError) return undefined;
    throw err;
  }
  const result = new Wild(answer, "Slack's answer");
  if (result.opt("ok")?.value !== true) return undefined;
  const name = result.opt(call.object)?.opt(call.field)?.value;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/**
 * Slack's Web API with the URL's `slack_app_token` (Zulip's parameter), or undefined without one.
 * Each id is asked once per event (a user mentioned twice, or mentioning themself, costs one call
 * of the event's budget); nothing is kept across events.
 */
function slackApi(ctx: WebhookContext): SlackApi | undefined {
  const token = ctx.params["slack_app_token"] ?? "";
  if (token === "") return undefined;
  const asked = new Map<string, Promise<string | undefined>>();
  const once = (key: string, ask: () => Promise<string | undefined>): Promise<string | undefined> => {
    const known = asked.get(key);
    if (known !== undefined) return known;
    const answer = ask();
    asked.set(key, answer);
    return answer;
  };
  return {
    userName: (id) =>
      once(`user:${id}`, () =>
        slackLookup(ctx, token, {
          method: "users.info",
          param: "user",
          id,
          object: "user",
          field: "real_name",
        }),
      ),
    channelName: (id) =>
      once(`channel:${id}`, () =>
        slackLookup(ctx, token, {
          method: "conversations.info",
          param: "channel",
          id,
          object: "channel",
          field: "name",
        }),
      ),
  };
}

/** A legacy outgoing-webhook field, from the form or the query; missing → Zulip's error. */
function field(fields: Wild, name: string): string {
  const value = fields.opt(name);
  if (value === undefined) throw new RequestVariableMissingError(name);
  return value.text();
}

/** Slack's legacy Outgoing Webhooks: `**<user>**: <text>`. */
function outgoingWebhook(p: Wild, params: Params): WebhookMessage {
  const mapping = channelMapping(params);
  const fields = p.get("outgoing");
  const user = field(fields, "user_name");
  const text = replaceLinks(convertSlackFormatting(field(fields, "text")));
  return slackMessage(`**${user}**: ${text}`, field(fields, "channel_name"), mapping);
}

/**
 * An Events API `message` event: the text converted to Zulip Markdown, then the shared files.
 * With the URL's `slack_app_token`, the sender's and the mentioned users' names are read from
 * Slack's `users.info` (`real_name`), and the channel's name, when `channels_map_to_topics` (or
 * `mapping`) is given, from `conversations.info`, as Zulip does. Without a token, or for a lookup
 * that fails, the event's `user_profile` name (when Slack includes one), the mention's short name,
 * or else the id is used.
 */
async function eventMessage(p: Wild, ctx: WebhookContext): Promise<WebhookMessage> {
  const mapping = channelMapping(ctx.params);
  const event = p.at("events", "event");
  const userId = event.get("user").str();
  const channelId = event.opt("channel")?.str() ?? "";
  const profile = event.opt("user_profile");
  const text = convertSlackWorkspaceMentions(convertSlackFormatting(event.opt("text")?.str() ?? ""));
  const mentioned = slackUserMentionIds(text);
  const api = slackApi(ctx);
  // The sender and the channel are asked first: they keep their names within the call budget.
  const [apiSender, apiChannel, ...apiMentioned] = await Promise.all([
    api?.userName(userId),
    mapping !== undefined && channelId !== "" ? api?.channelName(channelId) : undefined,
    ...mentioned.map((id) => api?.userName(id)),
  ]);
  const sender = apiSender ?? (profile?.opt("real_name")?.str() || profile?.opt("name")?.str() || userId);
  const names: Record<string, string> = { [userId]: sender };
  mentioned.forEach((id, i) => {
    const name = apiMentioned[i];
    if (name !== undefined) names[id] = name;
  });
  let body = `**${sender}**: ${convertSlackUserAndChannelMentions(text, names)}`;
  for (const file of event.opt("files")?.items() ?? []) {
    body += `\n*[${file.get("title").str()}](${file.get("permalink").str()})*`;
  }
  return slackMessage(body, apiChannel ?? channelId, mapping);
}

/**
 * Slack's Events API URL verification: answer the `challenge` (Zulip's success response with a
 * `challenge` field, which Slack accepts).
 */
export function slackHandshake(req: HandshakeRequest): HandshakeResponse | undefined {
  if (req.method !== "POST") return undefined;
  const payload = req.payload?.opt("events");
  if (payload?.opt("type")?.value !== "url_verification") return undefined;
  return { status: 200, body: { result: "success", msg: "", challenge: payload.get("challenge").text() } };
}

/** A message sent through a Zulip ⇄ Slack bridge bot: not mirrored back (no loops). */
function isBridgeBotMessage(events: Wild): boolean {
  const botApp = events.opt("event")?.opt("bot_profile")?.opt("app_id")?.value;
  return botApp !== undefined && events.opt("api_app_id")?.value === botApp;
}

/**
 * Slack: Events API `message` events of the channels a Slack app follows, and Slack's legacy
 * Outgoing Webhooks. Zulip passes no event type for either, so filters never drop them.
 */
export default defineIntegration({
  name: "slack",
  displayName: "Slack",
  categories: ["communication"],
  description: "Mirrors Slack channel messages (Events API or legacy outgoing webhooks) into Zulip.",
  body: slackBody(),
  signature: {
    kind: "hmac",
    header: "X-Slack-Signature",
    algorithm: "sha256",
    prefix: "v0=",
    signedContent: (req) =>
      Buffer.concat([Buffer.from(`v0:${req.header("X-Slack-Request-Timestamp") ?? ""}:`), req.rawBody]),
    timestampHeader: "X-Slack-Request-Timestamp",
    toleranceSeconds: 300,
  },
  // Slack's Web API (users.info, conversations.info) with the URL's `slack_app_token`.
  needs: ["http"],
  handshake: slackHandshake,
  classify: (input): string => {
    const payload = input.payload;
    if (payload.has("outgoing")) return "outgoing_webhook";
    // Slack retries a callback it did not see answered in 3 seconds; the first one was posted.
    if (input.httpHeader("X-Slack-Retry-Num") !== undefined) return "slack_retry";
    const events = payload.get("events");
    if (isBridgeBotMessage(events)) return "bridge_bot_message";
    const event = events.opt("event");
    const type = event?.get("type").str() ?? events.get("type").str();
    if (type !== "message") return type;
    if (event?.opt("user") === undefined) {
      // Messages of Slack integrations and bots have no user to name.
      return event?.opt("subtype")?.value === "bot_message"
        ? "integration bot message"
        : "unknown Slack event";
    }
    return "message";
  },
  events: {
    message: (p, ctx) => eventMessage(p, ctx),
    outgoing_webhook: (p, ctx) => outgoingWebhook(p, ctx.params),
  },
  ignoredEvents: ["slack_retry", "bridge_bot_message", "url_verification"],
  unfilteredEvents: ["message", "outgoing_webhook"],
});
