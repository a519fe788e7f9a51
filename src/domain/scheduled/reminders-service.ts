import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { ScheduledMessagesRepo } from "../../store/scheduled-messages-repo.js";
import type { ScheduledRow } from "../../store/scheduled-messages-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { hashEncode } from "../markdown/render.js";
import { MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE, truncate } from "../messages/content.js";
import type { User } from "../users/types.js";

/** Zulip's settings.MAX_REMINDER_NOTE_LENGTH. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

/** A reminder as GET /reminders, register's `reminders` and `reminders` events show it. */
export interface ReminderWire {
  reminder_id: number;
  type: "private";
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

const wire = (r: ScheduledRow): ReminderWire => ({
  reminder_id: r.id,
  type: "private",
  to: r.to,
  content: r.content,
  rendered_content: r.renderedContent,
  scheduled_delivery_timestamp: r.scheduledTimestamp,
  failed: r.failed,
  reminder_target_message_id: r.reminderTargetMessageId ?? 0,
});

/** Zulip's ResourceNotFoundError for a reminder that is not the user's. */
export class ReminderNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("Reminder does not exist");
  }
}

export interface RemindersDeps {
  repo: ScheduledMessagesRepo;
  events: EventSink;
  clock: Clock;
  realmUrl: () => string;
  messages: {
    getWithRawContent(
      user: User,
      id: number,
    ): Promise<{ rawContent: string; message: Record<string, unknown> }>;
    render(user: User, content: string): Promise<string>;
  };
}

interface DisplayRecipient {
  id: number;
  full_name: string;
}

const mention = (id: number, name: string): string => `@_**${name}|${id}**`;

/** Zulip's get_unused_fence. */
function unusedFence(content: string): string {
  let longest = 2;
  for (const m of content.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  return "`".repeat(longest + 1);
}

/** Zulip's normalize_note_text. */
function normalizeNote(note: string): string {
  const body = note.trimEnd().replace(/^\n+/, "");
  if ([...body].length > MAX_REMINDER_NOTE_LENGTH) {
    throw new JsonableError(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/**
 * Message reminders (Zulip 11, feature levels 381, 399, 415): POST/GET /reminders, DELETE
 * /reminders/{id}, `reminders` events, register's `reminders`. A reminder is a row of the scheduled
 * messages' table, so their delivery worker sends it: a direct message from the Notification Bot
 * to the user, worded as Zulip's zerver/lib/reminders.py.
 */
export class RemindersService {
  private readonly repo: ScheduledMessagesRepo;

  constructor(private readonly deps: RemindersDeps) {
    this.repo = deps.repo;
  }

  async list(user: User): Promise<ReminderWire[]> {
    return (await this.repo.pendingOf(user.id, true)).map(wire);
  }

  /** POST /reminders: returns the reminder's id. */
  async create(user: User, messageId: number, deliverAt: number, note: string | undefined): Promise<number> {
    if (deliverAt <= this.deps.clock.now() / 1000) {
      throw new JsonableError("Scheduled delivery time must be in the future.");
    }
    const content = await this.content(user, messageId, note);
    const row = await this.repo.insert(
      user.id,
      {
        type: "private",
        streamId: null,
        to: [user.id],
        topic: "",
        content,
        renderedContent: await this.deps.messages.render(user, content),
        scheduledTimestamp: Math.floor(deliverAt),
      },
      messageId,
    );
    this.deps.events.send({ type: "reminders", op: "add", reminders: [wire(row)] }, [user.id]);
    return row.id;
  }

  /** DELETE /reminders/{id}. */
  async delete(user: User, id: number): Promise<void> {
    const existing = await this.repo.byId(user.id, id, true);
    if (existing === undefined || existing.delivered) throw new ReminderNotFoundError();
    await this.repo.delete(user.id, id);
    this.deps.events.send({ type: "reminders", op: "remove", reminder_id: id }, [user.id]);
  }

  /** Zulip's get_reminder_formatted_content. */
  private async content(user: User, messageId: number, rawNote: string | undefined): Promise<string> {
    const note = rawNote === undefined || rawNote === "" ? "" : normalizeNote(rawNote);
    const { rawContent, message } = await this.deps.messages.getWithRawContent(user, messageId);
    const senderId = message["sender_id"] as number;
    const who = mention(senderId, message["sender_full_name"] as string);
    const base = this.deps.realmUrl();
    let content: string;
    let where: string;
    let url: string;
    if (message["type"] === "stream") {
      const streamId = message["stream_id"] as number;
      const name = message["display_recipient"] as string;
      const topic = message["subject"] as string;
      url =
        `${base}/#narrow/channel/${streamId}-${hashEncode(name.replace(/ /g, "-"))}` +
        `/topic/${hashEncode(topic.replace(/ /g, "-"))}/near/${messageId}`;
      content = note
        ? `You requested a reminder for the following message. Note:\n > ${note}`
        : "You requested a reminder for the following message.";
      where = `in #**${name}>${topic}@${messageId}**`;
    } else {
      const recipients = message["display_recipient"] as DisplayRecipient[];
      let others = recipients.filter((r) => r.id !== senderId);
      if (others.length === 0) others = recipients;
      const ids = recipients.map((r) => r.id).sort((a, b) => a - b);
      url = `${base}/#narrow/dm/${ids.join(",")}/near/${messageId}`;
      content = note
        ? `You requested a reminder for the following direct message. Note:\n > ${note}`
        : "You requested a reminder for the following direct message.";
      const list = new Intl.ListFormat("en", { type: "conjunction" }).format(
        others.map((r) => mention(r.id, r.full_name)),
      );
      where = `to ${list}`;
    }
    content += "\n\n";
    const widget = rawContent.startsWith("/poll")
      ? "poll"
      : rawContent.startsWith("/todo")
        ? "todo list"
        : "";
    if (widget !== "") return `${content}${who} [sent](${url}) a ${widget} ${where}.`;
    content += `${who} [said](${url}) ${where}:\n`;
    const fence = unusedFence(content);
    const overhead = content.length + `${fence}quote\n\n${fence}`.length;
    const quoted = truncate(rawContent, MAX_MESSAGE_LENGTH - overhead, TRUNCATION_NOTICE);
    return `${content}${fence}quote\n${quoted}\n${fence}`;
  }
}
