import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { DraftRow, DraftsRepo } from "../../store/drafts-repo.js";
import type { TransactionalRepo } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import { MAX_TOPIC_NAME_LENGTH, normalizeContent, truncate } from "../messages/content.js";
import type { User } from "../users/types.js";

/** A draft as a client sends it (already shaped by the route: Zulip's draft_dict_validator). */
export interface DraftInput {
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  /** Seconds (may be fractional); now when absent. */
  timestamp?: number | undefined;
}

/** A draft as GET /drafts, register's `drafts` and `drafts` events show it (Zulip's Draft.to_dict). */
export interface DraftWire {
  id: number;
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export function draftWire(d: DraftRow): DraftWire {
  return { id: d.id, type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: d.lastEditTime };
}

export interface DraftsDeps {
  repo: TransactionalRepo<DraftsRepo>;
  events: EventSink;
  clock: Clock;
  users: { byId(id: number): Promise<User | undefined> };
  /** The stream with this id if the user can access it, else "Invalid stream ID" (StreamAccess). */
  streams: { accessibleById(user: User, id: number): Promise<unknown> };
}

/** Zulip's ResourceNotFoundError for a draft that is not the user's. */
export class DraftNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("Draft does not exist");
  }
}

/**
 * Drafts synced between a user's clients (Zulip's drafts): GET/POST /drafts, PATCH/DELETE
 * /drafts/{id}, `drafts` events to the user's own queues, register's `drafts`.
 */
export class DraftsService {
  private readonly repo: DraftsRepo;

  constructor(private readonly deps: DraftsDeps) {
    this.repo = deps.repo.read;
  }

  /** The user's drafts, most recently edited first. */
  async list(user: User): Promise<DraftWire[]> {
    return (await this.repo.ofUser(user.id)).map(draftWire);
  }

  /** POST /drafts: every draft is checked before any is stored; one `add` event. Returns the ids. */
  async create(user: User, drafts: readonly DraftInput[]): Promise<number[]> {
    const valid: Omit<DraftRow, "id">[] = [];
    for (const d of drafts) valid.push(await this.validated(user, d));
    const created = await this.deps.repo.transaction(async (repo) => {
      const out: DraftRow[] = [];
      for (const d of valid) out.push(await repo.insert(d));
      return out;
    });
    this.deps.events.send({ type: "drafts", op: "add", drafts: created.map(draftWire) }, [user.id]);
    return created.map((d) => d.id);
  }

  /** PATCH /drafts/{id}: replaces the draft. */
  async edit(user: User, id: number, draft: DraftInput): Promise<void> {
    if ((await this.repo.byId(user.id, id)) === undefined) throw new DraftNotFoundError();
    const updated: DraftRow = { id, ...(await this.validated(user, draft)) };
    await this.repo.update(updated);
    this.deps.events.send({ type: "drafts", op: "update", draft: draftWire(updated) }, [user.id]);
  }

  /** DELETE /drafts/{id}. */
  async delete(user: User, id: number): Promise<void> {
    if (!(await this.repo.delete(user.id, id))) throw new DraftNotFoundError();
    this.deps.events.send({ type: "drafts", op: "remove", draft_id: id }, [user.id]);
  }

  /** Zulip's further_validated_draft_dict, with its texts (in the level-153 "stream" vocabulary). */
  private async validated(user: User, d: DraftInput): Promise<Omit<DraftRow, "id">> {
    const content = normalizeContent(d.content);
    const timestamp = d.timestamp ?? this.deps.clock.now() / 1000;
    if (timestamp < 0) throw new JsonableError("Timestamp must not be negative.");
    const base = { userId: user.id, content, lastEditTime: Math.floor(timestamp) };
    if (d.type === "stream") {
      const topic = truncate(d.topic, MAX_TOPIC_NAME_LENGTH, "...");
      if (topic.includes("\0")) throw new JsonableError("Topic must not contain null bytes");
      if (d.to.length !== 1) throw new JsonableError("Must specify exactly 1 stream ID for stream messages");
      await this.deps.streams.accessibleById(user, d.to[0]!);
      return { ...base, type: "stream", to: [d.to[0]!], topic };
    }
    if (d.type === "private" && d.to.length > 0) {
      for (const id of new Set(d.to)) {
        const other = await this.deps.users.byId(id);
        if (other?.realmId !== user.realmId) throw new JsonableError(`Invalid user ID ${id}`);
      }
      // Zulip's recipient: the other participants (yourself alone for a note to self).
      const others = [...new Set(d.to)].filter((id) => id !== user.id).sort((a, b) => a - b);
      return { ...base, type: "private", to: others.length === 0 ? [user.id] : others, topic: "" };
    }
    // No recipient yet: Zulip stores none and shows the draft as unaddressed.
    return { ...base, type: "", to: [], topic: "" };
  }
}
