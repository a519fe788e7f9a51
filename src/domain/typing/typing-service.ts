import { BadRequestError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import type { StreamAccess } from "../streams/access.js";
import type { User } from "../users/types.js";

export type TypingOp = "start" | "stop";

/** What POST /typing asks for, after argument parsing. */
export type TypingNotice =
  | { kind: "private"; op: TypingOp; to: readonly number[] }
  | { kind: "stream"; op: TypingOp; streamId: number; topic: string };

/** The lookups typing needs from the users area. */
export interface TypingUsers {
  byId(id: number): Promise<User | undefined>;
}

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: a larger stream's typing notices go to nobody. */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/**
 * Typing notifications (POST /typing): nothing is stored; a `typing` event goes to the
 * conversation's participants (the sender included, as Zulip does). Stream notices reach only the
 * queues registered with the stream_typing_notifications capability (the event queues filter them).
 */
export class TypingService {
  constructor(
    private readonly events: EventSink,
    private readonly users: TypingUsers,
    private readonly streams: StreamAccess,
  ) {}

  async notify(sender: User, notice: TypingNotice): Promise<void> {
    const senderWire = { user_id: sender.id, email: sender.email };
    if (notice.kind === "stream") {
      const stream = await this.streams.accessibleById(sender, notice.streamId);
      if (notice.topic === "") throw new BadRequestError("Missing topic");
      const subscribers = await this.streams.subscriberIds(stream.id);
      // As Zulip: in a large stream a notice per typist would reach every subscriber's queues.
      if (subscribers.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS) return;
      this.events.send(
        {
          type: "typing",
          op: notice.op,
          message_type: "stream",
          sender: senderWire,
          stream_id: stream.id,
          topic: notice.topic,
        },
        subscribers,
      );
      return;
    }
    if (notice.to.length === 0) throw new BadRequestError("Empty 'to' list");
    const recipients: User[] = [];
    for (const id of new Set(notice.to)) {
      const user = await this.users.byId(id);
      if (user?.isActive !== true || user.realmId !== sender.realmId) {
        throw new BadRequestError(`Invalid user ID ${id}`);
      }
      recipients.push(user);
    }
    const all = recipients.some((u) => u.id === sender.id) ? recipients : [...recipients, sender];
    all.sort((a, b) => a.id - b.id);
    this.events.send(
      {
        type: "typing",
        op: notice.op,
        // "direct" since Zulip 8.0 (feature level 215); clients treat "private" the same.
        message_type: "direct",
        sender: senderWire,
        recipients: all.map((u) => ({ user_id: u.id, email: u.email })),
      },
      all.map((u) => u.id),
    );
  }
}
