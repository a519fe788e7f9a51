import { JsonableError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import type { Stream } from "../streams/types.js";
import { isAdmin } from "../users/types.js";
import type { Realm, User } from "../users/types.js";
import { MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE, truncate } from "./content.js";
import type { SendInput } from "./types.js";

/** Zulip's Realm.REPORT_MESSAGE_REASONS: the `report_type` values and how a report names them. */
export const REPORT_TYPES = {
  spam: "Spam",
  harassment: "Harassment",
  inappropriate: "Inappropriate content",
  norms: "Violates community norms",
  other: "Other reason",
} as const;
export type ReportType = keyof typeof REPORT_TYPES;

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Zulip's MAX_REPORT_MESSAGE_SNIPPET_LENGTH: the reported content is cut so the report fits. */
const MAX_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

export interface MessageReportsDeps {
  events: EventSink;
  realmUrl: () => string;
  users: {
    realm(): Promise<Realm>;
    notificationBot(): Promise<User>;
    activeUserIds(): Promise<number[]>;
  };
  realmRepo: { setRealmModerationRequestChannel(realmId: number, channelId: number | null): Promise<void> };
  streams: {
    accessibleById(user: User, id: number): Promise<Stream>;
    byId(id: number): Promise<Stream | undefined>;
  };
  messages: {
    getWithRawContent(
      user: User,
      id: number,
    ): Promise<{ rawContent: string; message: Record<string, unknown> }>;
    send(sender: User, input: SendInput): Promise<number>;
  };
}

interface DisplayRecipient {
  id: number;
  full_name: string;
}

const mention = (u: { fullName: string; id: number }): string => `@_**${u.fullName}|${u.id}**`;
const mentionOf = (r: DisplayRecipient): string => mention({ fullName: r.full_name, id: r.id });

/** Zulip's datetime_to_global_time: `<time:…>` shows the moment in each reader's time zone. */
const globalTime = (seconds: number): string =>
  `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, "+00:00")}>`;

/** Zulip's get_unused_fence: a code fence longer than any inside the content. */
function unusedFence(content: string): string {
  let longest = 2;
  for (const m of content.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  return "`".repeat(longest + 1);
}

/**
 * Message reports (Zulip 11, feature level 382): POST /messages/{id}/report posts a report, from
 * the Notification Bot, to the realm's moderation-request channel, worded as Zulip's
 * zerver/lib/message_report.py; admins choose the channel with PATCH /realm.
 */
export class MessageReportService {
  constructor(private readonly deps: MessageReportsDeps) {}

  /** PATCH /realm `moderation_request_channel_id`: -1 turns reporting off; the channel must be private. */
  async setModerationRequestChannel(actor: User, channelId: number): Promise<void> {
    if (!isAdmin(actor)) throw new JsonableError("Must be an organization administrator");
    let value: number | null = null;
    if (channelId >= 0) {
      const stream = await this.deps.streams.accessibleById(actor, channelId);
      if (!stream.inviteOnly) throw new JsonableError("Moderation request channel must be private.");
      value = stream.id;
    }
    const realm = await this.deps.users.realm();
    if (realm.moderationRequestChannelId === value) return;
    await this.deps.realmRepo.setRealmModerationRequestChannel(realm.id, value);
    const everyone = await this.deps.users.activeUserIds();
    this.deps.events.send(
      { type: "realm", op: "update", property: "moderation_request_channel_id", value: value ?? -1 },
      everyone,
    );
  }

  /** POST /messages/{message_id}/report, with Zulip's checks in Zulip's order. */
  async report(user: User, messageId: number, reportType: ReportType, description: string): Promise<void> {
    if (reportType === "other" && description === "") throw new JsonableError("An explanation is required.");
    const realm = await this.deps.users.realm();
    const channel =
      realm.moderationRequestChannelId === null
        ? undefined
        : await this.deps.streams.byId(realm.moderationRequestChannelId);
    if (channel === undefined)
      throw new JsonableError("Message reporting is not enabled in this organization.");
    const { rawContent, message } = await this.deps.messages.getWithRawContent(user, messageId);
    const sender = { id: message["sender_id"] as number, fullName: message["sender_full_name"] as string };
    const when = globalTime(message["timestamp"] as number);
    const reporter = mention(user);
    let header = `${reporter} reported a message sent by ${mention(sender)} at ${when}.`;
    let original: string;
    if (message["type"] === "stream") {
      const link = `#**${message["display_recipient"] as string}>${message["subject"] as string}@${messageId}**`;
      original = `Original message at ${link}`;
    } else {
      const recipients = message["display_recipient"] as DisplayRecipient[];
      if (recipients.length > 2) {
        const others = recipients.filter((r) => r.id !== sender.id).map(mentionOf);
        const list = new Intl.ListFormat("en", { type: "conjunction" }).format(others);
        header = `${reporter} reported a message sent by ${mention(sender)} to ${list} at ${when}.`;
      } else if (sender.id === user.id) {
        // Reporting one's own message in a 1:1 conversation names its recipient.
        const other = recipients.find((r) => r.id !== user.id);
        const to = other === undefined ? reporter : mentionOf(other);
        header = `${reporter} reported a message sent by ${mention(sender)} to ${to} at ${when}.`;
      }
      const ids = recipients.map((r) => r.id).sort((a, b) => a - b);
      original = `[Original message](${this.deps.realmUrl()}/#narrow/dm/${ids.join(",")}/near/${messageId})`;
    }
    const snippet = truncate(rawContent, MAX_SNIPPET_LENGTH, TRUNCATION_NOTICE);
    const fence = unusedFence(snippet);
    const content =
      `${header}\n\`\`\`quote\n**${REPORT_TYPES[reportType]}**. ${description}\n\`\`\`\n\n` +
      `${fence} spoiler ${original}\n${snippet}\n${fence}\n`;
    const bot = await this.deps.users.notificationBot();
    await this.deps.messages.send(bot, {
      type: "stream",
      to: channel.id,
      topic: `${sender.fullName} moderation`,
      content,
    });
  }
}
