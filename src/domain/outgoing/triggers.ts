import type { SentMessage } from "../messages/types.js";
import { BotType } from "../users/types.js";
import type { User } from "../users/types.js";

export type WebhookTrigger = "mention" | "direct_message" | "private_message";

export interface BotTrigger {
  bot: User;
  trigger: WebhookTrigger;
}

/** Outgoing-webhook and embedded bots: Zulip's "service bots". */
export function isServiceBot(user: User): boolean {
  return user.isBot && (user.botType === BotType.OUTGOING_WEBHOOK || user.botType === BotType.EMBEDDED);
}

/**
 * Which service bots a new message triggers (Zulip's get_service_bot_events):
 * - nothing when the sender is a bot (loop prevention: a bot's replies never trigger bots);
 * - stream message: every active service bot with a real mention (`@**Bot**`, not silent, not a
 *   wildcard, not inside code: the renderer's `mentionedUserIds`) → `mention`;
 * - private message (one-to-one or group): every active service bot among the recipients →
 *   `direct_message` (`private_message` before Zulip 8.0, feature level 201).
 */
export async function serviceBotTriggers(
  message: SentMessage,
  lookup: (id: number) => Promise<User | undefined>,
  directTrigger: "direct_message" | "private_message",
): Promise<BotTrigger[]> {
  if (message.sender.isBot) return [];
  const candidates = message.type === "stream" ? message.mentionedUserIds : message.privateRecipientIds;
  const trigger: WebhookTrigger = message.type === "stream" ? "mention" : directTrigger;
  const out: BotTrigger[] = [];
  for (const id of new Set(candidates)) {
    if (id === message.sender.id) continue;
    const user = await lookup(id);
    if (user !== undefined && user.isActive && isServiceBot(user)) out.push({ bot: user, trigger });
  }
  return out;
}
