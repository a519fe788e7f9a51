import { JsonableError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import { isAdmin } from "../users/types.js";
import type { Realm, User } from "../users/types.js";

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

export interface RealmProfileDeps {
  events: EventSink;
  users: { realm(): Promise<Realm>; activeUserIds(): Promise<number[]> };
  realmRepo: {
    setRealmName(realmId: number, name: string): Promise<void>;
    setRealmDescription(realmId: number, description: string): Promise<void>;
  };
}

/**
 * The organization's name and description (PATCH /realm `name`, `description`; administrators
 * only): each change is stored and sent to every active user as Zulip's `realm` update event, so
 * clients show it at once (register's `realm_name`, `realm_description`).
 */
export class RealmProfileService {
  constructor(private readonly deps: RealmProfileDeps) {}

  async set(
    actor: User,
    changes: { name?: string | undefined; description?: string | undefined },
  ): Promise<void> {
    if (changes.name === undefined && changes.description === undefined) return;
    if (!isAdmin(actor)) throw new JsonableError("Must be an organization administrator");
    const name = changes.name?.trim();
    if (name !== undefined) {
      if (name === "") throw new JsonableError("Organization name can't be empty");
      if ([...name].length > MAX_REALM_NAME_LENGTH) {
        throw new JsonableError(`name is too long (limit: ${MAX_REALM_NAME_LENGTH} characters)`);
      }
    }
    const description = changes.description;
    if (description !== undefined && [...description].length > MAX_REALM_DESCRIPTION_LENGTH) {
      throw new JsonableError(`description is too long (limit: ${MAX_REALM_DESCRIPTION_LENGTH} characters)`);
    }
    const realm = await this.deps.users.realm();
    const everyone = await this.deps.users.activeUserIds();
    if (name !== undefined && name !== realm.name) {
      await this.deps.realmRepo.setRealmName(realm.id, name);
      this.deps.events.send({ type: "realm", op: "update", property: "name", value: name }, everyone);
    }
    if (description !== undefined && description !== realm.description) {
      await this.deps.realmRepo.setRealmDescription(realm.id, description);
      this.deps.events.send(
        { type: "realm", op: "update", property: "description", value: description },
        everyone,
      );
    }
  }
}
