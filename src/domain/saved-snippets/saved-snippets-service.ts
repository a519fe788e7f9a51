import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { SavedSnippetsRepo } from "../../store/saved-snippets-repo.js";
import type { SavedSnippetRow } from "../../store/saved-snippets-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { MAX_MESSAGE_LENGTH } from "../messages/content.js";
import type { User } from "../users/types.js";

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;

/** A saved snippet as GET /saved_snippets, register and events show it (Zulip's SavedSnippet.to_api_dict). */
export interface SavedSnippetWire {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

const wire = (s: SavedSnippetRow): SavedSnippetWire => ({
  id: s.id,
  title: s.title,
  content: s.content,
  date_created: s.dateCreated,
});

/** Zulip's ResourceNotFoundError for a snippet that is not the user's. */
export class SavedSnippetNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("Saved snippet does not exist.");
  }
}

/**
 * Zulip's StringConstraints(min_length=1, max_length, strip_whitespace=True) with typed_endpoint's
 * texts: the value is stripped, then "{name} cannot be blank" or "{name} is too long (limit: N characters)".
 */
export function snippetText(raw: string, name: "title" | "content"): string {
  const value = raw.trim();
  const max = name === "title" ? MAX_SNIPPET_TITLE_LENGTH : MAX_MESSAGE_LENGTH;
  if (value === "") throw new JsonableError(`${name} cannot be blank`);
  if ([...value].length > max) throw new JsonableError(`${name} is too long (limit: ${max} characters)`);
  return value;
}

export interface SavedSnippetsDeps {
  repo: SavedSnippetsRepo;
  events: EventSink;
  clock: Clock;
}

/**
 * Saved snippets (Zulip 10, feature levels 297 and 368): GET/POST /saved_snippets, PATCH/DELETE
 * /saved_snippets/{id}, `saved_snippets` events to the user's own queues, register's `saved_snippets`.
 */
export class SavedSnippetsService {
  private readonly repo: SavedSnippetsRepo;

  constructor(private readonly deps: SavedSnippetsDeps) {
    this.repo = deps.repo;
  }

  async list(user: User): Promise<SavedSnippetWire[]> {
    return (await this.repo.ofUser(user.id)).map(wire);
  }

  /** POST /saved_snippets; title and content come checked by snippetText. Returns the id. */
  async create(user: User, title: string, content: string): Promise<number> {
    const created = await this.repo.insert({
      userId: user.id,
      title,
      content,
      dateCreated: Math.floor(this.deps.clock.now() / 1000),
    });
    this.deps.events.send({ type: "saved_snippets", op: "add", saved_snippet: wire(created) }, [user.id]);
    return created.id;
  }

  /** PATCH /saved_snippets/{id}: nothing to change answers success and sends no event, as in Zulip. */
  async edit(user: User, id: number, change: { title?: string | undefined; content?: string | undefined }) {
    if (change.title === undefined && change.content === undefined) return;
    const current = await this.repo.byId(user.id, id);
    if (current === undefined) throw new SavedSnippetNotFoundError();
    const updated: SavedSnippetRow = {
      ...current,
      title: change.title ?? current.title,
      content: change.content ?? current.content,
    };
    await this.repo.update(updated);
    this.deps.events.send({ type: "saved_snippets", op: "update", saved_snippet: wire(updated) }, [user.id]);
  }

  /** DELETE /saved_snippets/{id}. */
  async delete(user: User, id: number): Promise<void> {
    if (!(await this.repo.delete(user.id, id))) throw new SavedSnippetNotFoundError();
    this.deps.events.send({ type: "saved_snippets", op: "remove", saved_snippet_id: id }, [user.id]);
  }
}
