import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import { ProfileFieldType, isAdmin } from "./types.js";
import type { CustomProfileField, User } from "./types.js";

/** A custom profile field as Zulip sends it (GET /realm/profile_fields, register, events). */
export function profileFieldWire(f: CustomProfileField): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    type: f.fieldType,
    hint: f.hint,
    field_data: f.fieldData,
    order: f.order,
    // Fields are optional, and every user may edit their own (Zulip 9.0 and 10.0, levels 244 and 296).
    required: false,
    editable_by_user: true,
  };
}

const LABEL_TAKEN = "A field with that label already exists.";

/** A field's label as stored: trimmed, refused when blank. */
function trimmedLabel(wanted: string): string {
  const name = wanted.trim();
  if (name === "") throw new JsonableError("Label cannot be blank.");
  return name;
}

/**
 * Refuses `name` when another of `fields` than `exceptId` has it in any case (a request at the
 * same time is refused by the store's UNIQUE index).
 */
function refuseTakenLabel(
  fields: readonly CustomProfileField[],
  name: string,
  exceptId: number | undefined,
): void {
  if (fields.some((f) => f.id !== exceptId && f.name.toLowerCase() === name.toLowerCase())) {
    throw new JsonableError(LABEL_TAKEN);
  }
}

export interface ProfileFieldsStore {
  profileFields(): Promise<CustomProfileField[]>;
  /** The new field's id; undefined when the realm has a field with this label (a concurrent request's). */
  insertProfileField(
    realmId: number,
    f: { name: string; hint: string; fieldType: number; fieldData: string },
  ): Promise<number | undefined>;
  updateProfileField(id: number, f: { name: string; hint: string; fieldData: string }): Promise<void>;
  deleteProfileField(id: number): Promise<void>;
  setProfileFieldOrder(ids: readonly number[]): Promise<void>;
}

export interface ProfileFieldsUsers {
  activeUserIds(): Promise<number[]>;
}

/**
 * Managing the organization's custom profile fields (POST, PATCH, DELETE /realm/profile_fields…):
 * administrators only; every change sends the whole list to everyone as a `custom_profile_fields`
 * event, as Zulip does.
 */
export class ProfileFieldsService {
  constructor(
    private readonly repo: ProfileFieldsStore,
    private readonly users: ProfileFieldsUsers,
    private readonly events: EventSink,
  ) {}

  async create(
    actor: User,
    input: { name: string; hint: string; fieldType: number; fieldData: string },
  ): Promise<number> {
    this.requireAdmin(actor);
    const name = trimmedLabel(input.name);
    if (!(Object.values(ProfileFieldType) as number[]).includes(input.fieldType)) {
      throw new JsonableError("Invalid field type.");
    }
    refuseTakenLabel(await this.repo.profileFields(), name, undefined);
    const id = await this.repo.insertProfileField(actor.realmId, { ...input, name });
    if (id === undefined) throw new JsonableError(LABEL_TAKEN);
    await this.announce();
    return id;
  }

  async update(
    actor: User,
    id: number,
    changes: { name?: string | undefined; hint?: string | undefined; fieldData?: string | undefined },
  ): Promise<void> {
    this.requireAdmin(actor);
    const fields = await this.repo.profileFields();
    const field = fields.find((f) => f.id === id);
    if (field === undefined) throw new JsonableError(`Field id ${id} not found.`);
    const name = changes.name === undefined ? field.name : trimmedLabel(changes.name);
    refuseTakenLabel(fields, name, id);
    await this.repo.updateProfileField(id, {
      name,
      hint: changes.hint ?? field.hint,
      fieldData: changes.fieldData ?? field.fieldData,
    });
    await this.announce();
  }

  async remove(actor: User, id: number): Promise<void> {
    this.requireAdmin(actor);
    if (!(await this.repo.profileFields()).some((f) => f.id === id)) {
      throw new JsonableError(`Field id ${id} not found.`);
    }
    await this.repo.deleteProfileField(id);
    await this.announce();
  }

  /** `order` must name every field exactly once. */
  async reorder(actor: User, order: readonly number[]): Promise<void> {
    this.requireAdmin(actor);
    const ids = (await this.repo.profileFields()).map((f) => f.id);
    const wanted = new Set(order);
    if (wanted.size !== order.length || wanted.size !== ids.length || ids.some((id) => !wanted.has(id))) {
      throw new JsonableError("Invalid order mapping.");
    }
    await this.repo.setProfileFieldOrder(order);
    await this.announce();
  }

  private requireAdmin(actor: User): void {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }

  private async announce(): Promise<void> {
    const fields = (await this.repo.profileFields()).map(profileFieldWire);
    const recipients = await this.users.activeUserIds();
    this.events.send({ type: "custom_profile_fields", fields }, recipients);
  }
}
