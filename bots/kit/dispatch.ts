import type { Bot } from "./define-bot.js";
import { NoBotConfigError } from "./errors.js";
import type { BotHandler, BotMessage, OutgoingMessage } from "./types.js";

export const TRIGGERS = ["mention", "direct_message", "private_message"] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The content after a leading mention of the bot (`@**Name**`, or `@**Name|id**` which survives
 * renames), with leading whitespace removed; null when the message does not start with one.
 * `fullNames` may hold several names (the configured one and the one in the webhook payload).
 */
export function extractQueryWithoutMention(
  content: string,
  fullNames: readonly string[],
  userId?: number,
): string | null {
  if (userId !== undefined) {
    const extended = new RegExp(`^@\\*\\*[^*]*?\\|${userId}\\*\\*`).exec(content);
    if (extended) return content.slice(extended[0].length).trimStart();
  }
  for (const name of fullNames) {
    const mention = `@**${name}**`;
    if (name !== "" && content.startsWith(mention)) return content.slice(mention.length).trimStart();
  }
  const bare = fullNames.filter((n) => n !== "").map(escapeRegExp);
  if (bare.length > 0) {
    // `@**Name|id**` with an id we do not know (no start-up check): accept it when the name matches.
    const named = new RegExp(`^@\\*\\*(?:${bare.join("|")})\\|\\d+\\*\\*`).exec(content);
    if (named) return content.slice(named[0].length).trimStart();
  }
  return null;
}

export type DispatchOutcome = "handled" | "ignored-trigger" | "mention-not-at-start";

/**
 * Runs a bot on one message, as Zulip's bot server and embedded-bot worker do: keeps the raw text
 * in `full_content`, strips a leading mention when the trigger is `mention` (a mention elsewhere in
 * the text is ignored), and calls the handler only for the triggers in {@link TRIGGERS}.
 * `botFullName` is the bot's current name from the webhook payload, if any.
 */
export async function dispatchBotMessage(
  bot: Bot,
  handler: BotHandler,
  message: BotMessage,
  trigger: string,
  botFullName?: string,
): Promise<DispatchOutcome> {
  if (!(TRIGGERS as readonly string[]).includes(trigger)) return "ignored-trigger";
  const full = message.content;
  let content = full;
  if (trigger === "mention") {
    const names = [handler.identity.fullName];
    if (botFullName !== undefined && botFullName !== handler.identity.fullName) names.unshift(botFullName);
    const query = extractQueryWithoutMention(full, names, handler.identity.userId);
    if (query === null) return "mention-not-at-start";
    content = query;
  }
  await bot.handleMessage({ ...message, content, full_content: full }, handler);
  return "handled";
}

/** Checks the bot's config (required section, `validate`) and runs `initialize`. */
export async function initializeBot(bot: Bot, handler: BotHandler): Promise<void> {
  if (bot.requiresConfig && Object.keys(handler.config).length === 0) {
    throw new NoBotConfigError(bot.name, bot.configSection);
  }
  bot.config?.validate?.(handler.config);
  await bot.initialize?.(handler);
}

/**
 * Where a reply to `message` goes: the same stream and topic, or the same direct-message group.
 * Recipients without an email are skipped; a message without usable recipients (no
 * `display_recipient`, or one like `[1, null, {}]`) gets a direct reply to its sender.
 */
export function replyTarget(message: BotMessage, content: string, widgetContent?: string): OutgoingMessage {
  const widget = widgetContent === undefined ? {} : { widget_content: widgetContent };
  const recipient = message.display_recipient as unknown;
  if (typeof recipient === "string" && recipient !== "") {
    const topic = typeof message.subject === "string" ? message.subject : "";
    return { type: "stream", to: recipient, topic, content, ...widget };
  }
  if (Array.isArray(recipient)) {
    const emails = recipient
      .map((r: unknown) =>
        typeof r === "object" && r !== null ? (r as { email?: unknown }).email : undefined,
      )
      .filter((email): email is string => typeof email === "string" && email !== "");
    if (emails.length > 0) return { type: "private", to: emails, content, ...widget };
  }
  if (typeof message.sender_email === "string" && message.sender_email !== "") {
    return { type: "private", to: [message.sender_email], content, ...widget };
  }
  throw new Error("Cannot reply: the message has neither display_recipient nor sender_email");
}

/**
 * The conversation a message belongs to (`stream:<name>/<topic>` or `dm:<sorted emails>`): replies
 * within one conversation are sent in order.
 */
export function conversationKey(message: BotMessage): string {
  try {
    const target = replyTarget(message, "");
    return target.type === "stream"
      ? `stream:${String(target.to)}/${(target.topic ?? "").toLowerCase()}`
      : `dm:${target.to.map(String).sort().join(",")}`;
  } catch {
    return `message:${String(message.id)}`;
  }
}
