import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import type { LinkifierRow, LinkifiersRepo } from "../../store/linkifiers-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { ChangeBus } from "../../infra/change-bus.js";
import type { Logger } from "../../lib/logger.js";
import type { Linkifier } from "../markdown/linkifiers.js";
import { compileLinkifier } from "../markdown/linkifiers.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";

const PATTERN_TAKEN = "Linkifier with this Pattern already exists.";

export function linkifierWire(l: LinkifierRow): Record<string, unknown> {
  return { pattern: l.pattern, url_template: l.urlTemplate, id: l.id };
}

export interface LinkifierUsers {
  activeUserIds(): Promise<number[]>;
}

/**
 * Linkifiers (GET /realm/linkifiers, POST /realm/filters, PATCH/DELETE /realm/filters/{id}):
 * administrators manage them; every change sends the realm `realm_linkifiers` (and the legacy
 * `realm_filters`) with the whole list. The Markdown renderer applies them (`forRendering`).
 */
export class LinkifiersService {
  private cache: Linkifier[] | undefined;

  constructor(
    private readonly repo: LinkifiersRepo,
    private readonly users: LinkifierUsers,
    private readonly events: EventSink,
    /** With `--redis`: a change made by another process drops this process's cache too. */
    private readonly changes?: ChangeBus,
    private readonly logger?: Logger,
  ) {
    changes?.subscribe("linkifiers", () => {
      this.cache = undefined;
    });
  }

  list(): Promise<LinkifierRow[]> {
    return this.repo.all();
  }

  /**
   * The compiled linkifiers, for the renderer (cached until a change). A stored row that no longer
   * compiles (one saved before patterns were checked by RE2's rules, e.g. with a backreference) is
   * left out with a warning, so it can neither fail nor freeze rendering.
   */
  async forRendering(): Promise<Linkifier[]> {
    if (this.cache === undefined) {
      const compiled: Linkifier[] = [];
      for (const row of await this.repo.all()) {
        try {
          compiled.push(await compileLinkifier(row.pattern, row.urlTemplate));
        } catch (e) {
          if (!(e instanceof JsonableError)) throw e;
          this.logger?.warn("linkifier skipped: its pattern is refused", {
            linkifier_id: row.id,
            reason: e.message,
          });
        }
      }
      this.cache = compiled;
    }
    return this.cache;
  }

  private async check(actor: User, pattern: string, urlTemplate: string): Promise<void> {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
    await compileLinkifier(pattern, urlTemplate);
  }

  async add(actor: User, pattern: string, urlTemplate: string): Promise<number> {
    await this.check(actor, pattern, urlTemplate);
    const id = await this.repo.insert(pattern, urlTemplate);
    if (id === undefined) throw new JsonableError(PATTERN_TAKEN);
    await this.publish();
    return id;
  }

  async update(actor: User, id: number, pattern: string, urlTemplate: string): Promise<void> {
    await this.check(actor, pattern, urlTemplate);
    if ((await this.repo.all()).some((l) => l.pattern === pattern && l.id !== id)) {
      throw new JsonableError(PATTERN_TAKEN);
    }
    if ((await this.repo.update(id, pattern, urlTemplate)) === 0)
      throw new JsonableError("Linkifier not found.");
    await this.publish();
  }

  async remove(actor: User, id: number): Promise<void> {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
    if ((await this.repo.delete(id)) === 0) throw new JsonableError("Linkifier not found.");
    await this.publish();
  }

  private async publish(): Promise<void> {
    this.cache = undefined;
    this.changes?.publish("linkifiers");
    const all = await this.repo.all();
    const recipients = await this.users.activeUserIds();
    this.events.send({ type: "realm_linkifiers", realm_linkifiers: all.map(linkifierWire) }, recipients);
    this.events.send(
      { type: "realm_filters", realm_filters: all.map((l) => [l.pattern, l.urlTemplate, l.id]) },
      recipients,
    );
  }
}
