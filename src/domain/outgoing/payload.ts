import { JsonableError } from "../../errors.js";
import type { SentMessage } from "../messages/types.js";
import type { BotService, User } from "../users/types.js";
import { pyStr, pyTruthy } from "./python.js";
import { INVALID_FORMAT, INVALID_JSON } from "./texts.js";
import type { WebhookTrigger } from "./triggers.js";

/** Zulip's Service interfaces. */
export const Interface = { GENERIC: 1, SLACK: 2 } as const;

/** What a job stores: the message as the bot sees it when it was sent, and why the bot was called. */
export interface JobPayload {
  trigger: WebhookTrigger;
  message: BotViewMessage;
}

/** A message dict in GET /messages format with raw Markdown content (Zulip's wide message dict). */
export interface BotViewMessage {
  id: number;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  type: "stream" | "private";
  content: string;
  subject: string;
  timestamp: number;
  display_recipient: string | { id: number; email: string; full_name: string }[];
  stream_id?: number;
  [field: string]: unknown;
}

/** The conversation a message belongs to: a stream's topic, or the set of people in a DM. */
export function conversationOf(message: BotViewMessage): string {
  const to = message.display_recipient;
  if (typeof to === "string") return `stream:${message.stream_id ?? to}:${message.subject}`;
  return `dm:${to
    .map((p) => p.id)
    .sort((a, b) => a - b)
    .join(",")}`;
}

/**
 * The message as the webhook carries it: GET /messages format built with apply_markdown=False and
 * client_gravatar=False, plus `rendered_content` (Zulip keeps it), without per-user `flags`.
 */
export function botViewOfMessage(sent: SentMessage): BotViewMessage {
  return {
    ...sent.wire,
    content: sent.content,
    content_type: "text/x-markdown",
    rendered_content: sent.renderedContent,
  } as unknown as BotViewMessage;
}

/** The generic ("zulip") interface's JSON body. `data` is the raw content, mention included. */
export function genericRequestBody(p: JobPayload, bot: User, service: BotService): Record<string, unknown> {
  return {
    data: p.message.content,
    message: p.message,
    bot_email: bot.email,
    bot_full_name: bot.fullName,
    token: service.token,
    trigger: p.trigger,
  };
}

/** The Slack interface's form fields, in Zulip's order (SlackOutgoingWebhookService.make_request). */
export function slackRequestForm(
  p: JobPayload,
  bot: User,
  service: BotService,
  realmHost: string,
): Record<string, string> {
  const m = p.message;
  return {
    token: service.token,
    team_id: `T${bot.realmId}`,
    team_domain: realmHost,
    channel_id: `C${String(m.stream_id)}`,
    channel_name: typeof m.display_recipient === "string" ? m.display_recipient : "",
    thread_ts: String(m.timestamp),
    timestamp: String(m.timestamp),
    user_id: `U${m.sender_id}`,
    user_name: m.sender_full_name,
    text: m.content,
    trigger_word: p.trigger,
    service_id: String(bot.id),
  };
}

/**
 * A 2xx answer → the bot's reply, or null for none (Zulip's process_success_response). Throws
 * Zulip's JsonableErrors for a body that is not JSON or not an object. A body of zero bytes
 * counts as "no response", like JSON `""` (what bot servers before 2021-05 answered).
 */
export function parseWebhookResponse(iface: number, body: string): { content: string } | null {
  if (body.trim() === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new JsonableError(INVALID_JSON);
  }
  if (json === "") return null;
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new JsonableError(INVALID_FORMAT);
  const answer = json as Record<string, unknown>;
  let content: string | undefined;
  if (iface === Interface.SLACK) {
    if (answer["text"] !== undefined && answer["text"] !== null) content = pyStr(answer["text"]);
  } else if (pyTruthy(answer["response_not_required"])) {
    return null;
  } else if ("response_string" in answer) {
    content = pyStr(answer["response_string"]);
  } else if ("content" in answer) {
    content = pyStr(answer["content"]);
  }
  if (content === undefined || content.trim() === "") return null;
  return { content };
}
