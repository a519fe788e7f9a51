import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { Logger } from "../../lib/logger.js";
import type { ScheduledMessagesRepo } from "../../store/scheduled-messages-repo.js";
import type { ScheduledFields, ScheduledRow } from "../../store/scheduled-messages-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { SendInput } from "../messages/types.js";
import type { User } from "../users/types.js";
import { checkTarget } from "./targets.js";
import type { TargetInput, TargetLookups } from "./targets.js";

/** A scheduled message as GET /scheduled_messages and `scheduled_messages` events show it. */
export type ScheduledWire = Record<string, unknown>;

/** Zulip's ScheduledMessage.to_dict. */
export function scheduledWire(m: ScheduledRow): ScheduledWire {
  const common = {
    scheduled_message_id: m.id,
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: m.scheduledTimestamp,
    failed: m.failed,
  };
  return m.type === "stream"
    ? { ...common, to: m.streamId, type: "stream", topic: m.topic }
    : { ...common, to: m.to, type: "private" };
}

export interface ScheduledDeps extends TargetLookups {
  repo: ScheduledMessagesRepo;
  events: EventSink;
  clock: Clock;
  logger: Logger;
  users: TargetLookups["users"] & { notificationBot(): Promise<User> };
  /** Sending and rendering (the messages service). */
  messages: {
    send(sender: User, input: SendInput): Promise<number>;
    render(user: User, content: string): Promise<string>;
  };
  /** How often the worker looks for due messages (ms); 0: only `tick()` (tests). */
  pollIntervalMs: number;
}

/** Zulip's ResourceNotFoundError for a scheduled message that is not the user's. */
export class ScheduledMessageNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("Scheduled message does not exist");
  }
}

/** A claim lasts this long: a process that dies mid-delivery leaves the message to another after it. */
const CLAIM_MS = 60_000;
const BATCH = 100;

/**
 * Scheduled messages (Zulip's send-later): GET/POST /scheduled_messages, PATCH/DELETE
 * /scheduled_messages/{id}, `scheduled_messages` events to the sender, register's
 * `scheduled_messages`; and the delivery worker. The schedule lives in the database, so a restart
 * loses nothing: the worker sends whatever is due when it starts. Each message is claimed with one
 * UPDATE before it is sent, so several processes never send it twice; a claim expires, so a
 * process that crashed mid-delivery leaves it to another (at-least-once in that narrow window).
 */
export class ScheduledMessagesService {
  private readonly repo: ScheduledMessagesRepo;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> = Promise.resolve(0);
  private closing = false;

  constructor(private readonly deps: ScheduledDeps) {
    this.repo = deps.repo;
  }

  private now(): number {
    return this.deps.clock.now() / 1000;
  }

  async list(user: User): Promise<ScheduledWire[]> {
    return (await this.repo.pendingOf(user.id)).map(scheduledWire);
  }

  /** POST /scheduled_messages: checked as a send would be now. Returns the scheduled message's id. */
  async create(user: User, input: TargetInput & { deliverAt: number }): Promise<number> {
    if (input.deliverAt <= this.now())
      throw new JsonableError("Scheduled delivery time must be in the future.");
    const fields = await this.fields(user, input, input.deliverAt);
    const row = await this.repo.insert(user.id, fields);
    this.deps.events.send(
      { type: "scheduled_messages", op: "add", scheduled_messages: [scheduledWire(row)] },
      [user.id],
    );
    return row.id;
  }

  /**
   * PATCH /scheduled_messages/{id} (Zulip's edit_scheduled_message): the fields given replace the
   * stored ones, and the result is checked as a send would be. A message that failed to send needs
   * a new delivery time.
   */
  async edit(
    user: User,
    id: number,
    change: {
      type?: "stream" | "private" | undefined;
      to?: number | number[] | undefined;
      topic?: string | undefined;
      content?: string | undefined;
      deliverAt?: number | undefined;
    },
  ): Promise<void> {
    const { type, to, topic, content, deliverAt } = change;
    if ([type, to, topic, content, deliverAt].every((v) => v === undefined)) {
      throw new JsonableError("Nothing to change");
    }
    if (type !== undefined && to === undefined) {
      throw new JsonableError("Recipient required when updating type of scheduled message.");
    }
    if (type === "stream" && topic === undefined) {
      throw new JsonableError("Topic required when updating scheduled message type to stream.");
    }
    if (deliverAt !== undefined && deliverAt <= this.now()) {
      throw new JsonableError("Scheduled delivery time must be in the future.");
    }
    const existing = await this.repo.byId(user.id, id);
    if (existing === undefined) throw new ScheduledMessageNotFoundError();
    if (existing.delivered) throw new JsonableError("Scheduled message was already sent");
    if (existing.failed && deliverAt === undefined) {
      throw new JsonableError("Scheduled delivery time must be in the future.");
    }
    const newType = type ?? existing.type;
    const fields = await this.fields(
      user,
      {
        type: newType,
        to: to ?? (existing.type === "stream" ? (existing.streamId ?? 0) : existing.to),
        topic: topic ?? existing.topic,
        content: content ?? existing.content,
      },
      deliverAt ?? existing.scheduledTimestamp,
    );
    if (!(await this.repo.update(user.id, id, fields)))
      throw new JsonableError("Scheduled message was already sent");
    const updated = await this.repo.byId(user.id, id);
    if (updated !== undefined) {
      this.deps.events.send(
        { type: "scheduled_messages", op: "update", scheduled_message: scheduledWire(updated) },
        [user.id],
      );
    }
  }

  /** DELETE /scheduled_messages/{id}: cancels it. */
  async delete(user: User, id: number): Promise<void> {
    const existing = await this.repo.byId(user.id, id);
    if (existing === undefined || existing.delivered) throw new ScheduledMessageNotFoundError();
    await this.repo.delete(user.id, id);
    this.deps.events.send({ type: "scheduled_messages", op: "remove", scheduled_message_id: id }, [user.id]);
  }

  private async fields(user: User, input: TargetInput, deliverAt: number): Promise<ScheduledFields> {
    const target = await checkTarget(this.deps, user, input);
    return {
      type: target.type,
      streamId: target.streamId,
      to: target.to,
      topic: target.topic,
      content: target.content,
      renderedContent: await this.deps.messages.render(user, target.content),
      scheduledTimestamp: Math.floor(deliverAt),
    };
  }

  /** Starts the delivery worker; it first sends whatever fell due while no server ran. */
  start(): void {
    if (this.deps.pollIntervalMs > 0) {
      this.timer = setInterval(() => {
        void this.tick().catch((err: unknown) =>
          this.deps.logger.error("scheduled messages: delivery failed", { err: String(err) }),
        );
      }, this.deps.pollIntervalMs);
      this.timer.unref();
    }
    void this.tick().catch((err: unknown) =>
      this.deps.logger.error("scheduled messages: delivery failed", { err: String(err) }),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.running.catch(() => undefined);
  }

  /** Sends every message due now (one run at a time); the number sent or failed. */
  tick(): Promise<number> {
    const run = this.running.catch(() => 0).then(() => this.deliverDue());
    this.running = run;
    return run;
  }

  private async deliverDue(): Promise<number> {
    let done = 0;
    for (;;) {
      if (this.closing) return done;
      const nowMs = this.deps.clock.now();
      const ids = await this.repo.dueIds(Math.floor(nowMs / 1000), nowMs, BATCH);
      let claimed = 0;
      for (const id of ids) {
        if (this.closing) return done;
        const message = await this.repo.claim(id, nowMs, nowMs + CLAIM_MS);
        if (message === undefined) continue;
        claimed += 1;
        await this.deliver(message);
        done += 1;
      }
      if (ids.length < BATCH || claimed === 0) return done;
    }
  }

  /** Zulip's send_scheduled_message: sent as the sender; a refusal marks it failed and says why. */
  private async deliver(m: ScheduledRow): Promise<void> {
    const sender = await this.deps.users.byId(m.senderId);
    try {
      if (sender?.isActive !== true) throw new JsonableError("Account is deactivated");
      if (m.reminderTargetMessageId !== null) {
        // Zulip's send_scheduled_message for a reminder: a direct message from the Notification Bot.
        const bot = await this.deps.users.notificationBot();
        const messageId = await this.deps.messages.send(bot, {
          type: "private",
          to: [sender.id],
          content: m.content,
        });
        await this.repo.markDelivered(m.id, messageId);
        this.deps.events.send({ type: "reminders", op: "remove", reminder_id: m.id }, [m.senderId]);
        return;
      }
      const messageId = await this.deps.messages.send(sender, {
        type: m.type,
        to: m.type === "stream" ? (m.streamId ?? 0) : m.to,
        topic: m.topic,
        content: m.content,
      });
      await this.repo.markDelivered(m.id, messageId);
      this.deps.events.send({ type: "scheduled_messages", op: "remove", scheduled_message_id: m.id }, [
        m.senderId,
      ]);
    } catch (err) {
      // Anything else (the database gone, …) leaves the claim to expire: it is tried again.
      if (!(err instanceof JsonableError)) throw err;
      await this.repo.markFailed(m.id, err.message);
      if (m.reminderTargetMessageId !== null) return;
      const failed = await this.repo.byId(m.senderId, m.id);
      if (failed !== undefined) {
        this.deps.events.send(
          { type: "scheduled_messages", op: "update", scheduled_message: scheduledWire(failed) },
          [m.senderId],
        );
      }
      if (sender?.isActive === true) await this.notifyFailure(sender, m, err.message);
    }
  }

  private async notifyFailure(sender: User, m: ScheduledRow, error: string): Promise<void> {
    const when = new Date(m.scheduledTimestamp * 1000)
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, "+00:00");
    const content =
      `The message you scheduled for <time:${when}>  was not sent because of the following error:\n\n` +
      `> ${error}\n\n[View scheduled messages](#scheduled)`;
    const bot = await this.deps.users.notificationBot();
    await this.deps.messages.send(bot, { type: "private", to: [sender.id], content });
  }
}
