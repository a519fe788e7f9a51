import { JsonableError, RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { HandshakeRequest, HandshakeResponse, Params, WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";
import { slackBody } from "./body.js";
import {
  convertSlackFormatting,
  convertSlackUserAndChannelMentions,
  convertSlackWorkspaceMentions,
  replaceLinks,
} from "./markdown.js";

const DEFAULT_TOPIC = "Message from Slack";

/**
 * `channels_map_to_topics`: absent → one topic, "Message from Slack"; `1` → a topic per Slack
 * channel ("channel: <name>"); `0` → a stream named after the Slack channel, topic "Message from
 * Slack", as Zulip does.
 */
function slackMessage(content: string, channel: string, params: Params): WebhookMessage {
  const mapping = params["channels_map_to_topics"] ?? (params["mapping"] === "channels" ? "0" : undefined);
  if (mapping !== undefined && mapping !== "0" && mapping !== "1") {
    throw new JsonableError("Error: channels_map_to_topics parameter other than 0 or 1");
  }
  const body = normalizeBody(content);
  if (mapping === "0") return { topic: DEFAULT_TOPIC, body, stream: channel };
  return { topic: mapping === "1" ? `channel: ${channel}` : DEFAULT_TOPIC, body };
}

/** A legacy outgoing-webhook field, from the form or the query; missing → Zulip's error. */
function field(fields: Wild, name: string): string {
  const value = fields.opt(name);
  if (value === undefined) throw new RequestVariableMissingError(name);
  return value.text();
}

/** Slack's legacy Outgoing Webhooks: `**<user>**: <text>`. */
function outgoingWebhook(p: Wild, params: Params): WebhookMessage {
  const fields = p.get("outgoing");
  const user = field(fields, "user_name");
  const text = replaceLinks(convertSlackFormatting(field(fields, "text")));
  return slackMessage(`**${user}**: ${text}`, field(fields, "channel_name"), params);
}

/**
 * An Events API `message` event: the text converted to Zulip Markdown, then the shared files.
 * Zulip asks Slack's API (with the URL's `slack_app_token`) for the sender's and the channel's
 * names; this server makes no outgoing calls, so it uses the event's `user_profile` name when
 * Slack includes one, else the ids.
 */
function eventMessage(p: Wild, params: Params): WebhookMessage {
  const event = p.at("events", "event");
  const userId = event.get("user").str();
  const profile = event.opt("user_profile");
  const sender = profile?.opt("real_name")?.str() || profile?.opt("name")?.str() || userId;
  const raw = event.opt("text")?.str() ?? "";
  const text = convertSlackUserAndChannelMentions(
    convertSlackWorkspaceMentions(convertSlackFormatting(raw)),
    { [userId]: sender },
  );
  let body = `**${sender}**: ${text}`;
  for (const file of event.opt("files")?.items() ?? []) {
    body += `\n*[${file.get("title").str()}](${file.get("permalink").str()})*`;
  }
  return slackMessage(body, event.opt("channel")?.str() ?? "", params);
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
    message: (p, ctx) => eventMessage(p, ctx.params),
    outgoing_webhook: (p, ctx) => outgoingWebhook(p, ctx.params),
  },
  ignoredEvents: ["slack_retry", "bridge_bot_message", "url_verification"],
  unfilteredEvents: ["message", "outgoing_webhook"],
});
