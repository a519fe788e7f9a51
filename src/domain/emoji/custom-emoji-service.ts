import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { RealmEmojiRepo } from "../../store/realm-emoji-repo.js";
import type { RealmEmojiRow } from "../../store/realm-emoji-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { EMOJI_CODEPOINTS } from "../markdown/emoji.js";
import type { CustomEmojiRef, CustomEmojiSource } from "../markdown/emoji-custom.js";
import { randomSegment } from "../uploads/files.js";
import type { UploadStorage } from "../uploads/storage.js";
import type { User } from "../users/types.js";
import { isAdmin, isGuest } from "../users/types.js";
import { processEmojiImage } from "./images.js";
import { normalizeEmojiName } from "./names.js";

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB default. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** A custom emoji as GET /realm/emoji, register's `realm_emoji` and `realm_emoji` events show it. */
export interface RealmEmojiWire {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
  still_url: string | null;
}

export interface CustomEmojiDeps {
  repo: RealmEmojiRepo;
  /** The uploads storage (src/domain/uploads/storage.ts): the images live beside uploaded files. */
  storage: UploadStorage;
  events: EventSink;
  clock: Clock;
  users: { activeUserIds(): Promise<number[]>; realm(): Promise<{ id: number }> };
}

/** An image to serve at a custom emoji's URL. */
export interface EmojiFile {
  bytes: Buffer;
  contentType: string;
}

/** Zulip's 404 for a file that is not there. */
export class EmojiFileNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("File not found");
  }
}

const withoutExtension = (fileName: string): string => fileName.replace(/\.[^.]*$/, "");

/**
 * Custom emoji (Zulip's RealmEmoji): upload (POST /realm/emoji/{name}), list (GET /realm/emoji),
 * deactivate (DELETE /realm/emoji/{name}), `realm_emoji` events with the whole dict, the images at
 * their source_url, and the lookups Markdown and reactions use (CustomEmojiSource).
 */
export class CustomEmojiService implements CustomEmojiSource {
  private realmId: number | undefined;

  constructor(private readonly deps: CustomEmojiDeps) {}

  private async realm(): Promise<number> {
    this.realmId ??= (await this.deps.users.realm()).id;
    return this.realmId;
  }

  private async wire(row: RealmEmojiRow): Promise<RealmEmojiWire> {
    const base = `/user_avatars/${await this.realm()}/emoji/images/`;
    return {
      id: String(row.id),
      name: row.name,
      source_url: base + row.fileName,
      deactivated: row.deactivated,
      author_id: row.authorId,
      still_url: row.stillStorageKey === null ? null : `${base}still/${withoutExtension(row.fileName)}.png`,
    };
  }

  private async ref(row: RealmEmojiRow): Promise<CustomEmojiRef> {
    const w = await this.wire(row);
    return { id: w.id, name: w.name, sourceUrl: w.source_url, deactivated: w.deactivated };
  }

  /** Every custom emoji, deactivated ones too, keyed by id (Zulip's get_all_custom_emoji_for_realm). */
  async all(): Promise<Record<string, RealmEmojiWire>> {
    const out: Record<string, RealmEmojiWire> = {};
    for (const row of await this.deps.repo.all()) out[String(row.id)] = await this.wire(row);
    return out;
  }

  async activeNamed(names: readonly string[]): Promise<CustomEmojiRef[]> {
    return Promise.all((await this.deps.repo.activeNamed(names)).map((r) => this.ref(r)));
  }

  async byCode(code: string): Promise<CustomEmojiRef | undefined> {
    if (!/^\d{1,15}$/.test(code)) return undefined;
    const row = await this.deps.repo.byId(Number(code));
    return row === undefined ? undefined : this.ref(row);
  }

  /**
   * POST /realm/emoji/{emoji_name}, with Zulip's checks in Zulip's order: guests refused, the name
   * (normalized), an active emoji of that name, exactly one file, built-in names for administrators
   * only, the size limit, then the image itself.
   */
  async upload(actor: User, rawName: string, files: readonly Uint8Array[]): Promise<void> {
    if (isGuest(actor)) throw new JsonableError("Not allowed for guest users");
    const name = normalizeEmojiName(rawName);
    if ((await this.deps.repo.activeByName(name)) !== undefined) {
      throw new JsonableError("A custom emoji with this name already exists.");
    }
    if (files.length !== 1) throw new JsonableError("You must upload exactly one file.");
    if (Object.hasOwn(EMOJI_CODEPOINTS, name) && !isAdmin(actor)) {
      throw new JsonableError("Only administrators can override built-in emoji.");
    }
    const bytes = files[0]!;
    if (bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
      throw new JsonableError(
        `Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`,
      );
    }
    const image = await processEmojiImage(bytes);
    const storageKey = `emoji-${randomSegment()}`;
    const stillStorageKey = image.still === undefined ? null : `emoji-${randomSegment()}`;
    // The files first, then the row; whatever fails on the way leaves no file behind.
    let row: RealmEmojiRow | undefined;
    try {
      await this.deps.storage.put(storageKey, image.bytes);
      if (image.still !== undefined && stillStorageKey !== null) {
        await this.deps.storage.put(stillStorageKey, image.still);
      }
      row = await this.deps.repo.insert({
        name,
        fileName: image.fileName,
        contentType: image.contentType,
        storageKey,
        stillStorageKey,
        authorId: actor.id,
        dateCreated: Math.floor(this.deps.clock.now() / 1000),
      });
    } finally {
      if (row === undefined) {
        await this.deps.storage.delete(storageKey);
        if (stillStorageKey !== null) await this.deps.storage.delete(stillStorageKey);
      }
    }
    // Another upload of the same name won the race (Zulip's answer for it too).
    if (row === undefined) throw new JsonableError("A custom emoji with this name already exists.");
    await this.notify();
  }

  /**
   * DELETE /realm/emoji/{emoji_name}: deactivates the active emoji of that name (old messages and
   * reactions keep showing it). Administrators may deactivate any; others only their own.
   */
  async deactivate(actor: User, name: string): Promise<void> {
    const emoji = await this.deps.repo.activeByName(name);
    // Zulip answers 400 here before feature level 190 (404 since).
    if (emoji === undefined) throw new JsonableError(`Emoji '${name}' does not exist`);
    if (!isAdmin(actor) && emoji.authorId !== actor.id) {
      throw new JsonableError("Must be an organization administrator or emoji author");
    }
    await this.deps.repo.deactivate(name);
    await this.notify();
  }

  /** The image at a source_url or still_url (deactivated emoji too: old messages show them). */
  async serve(realmId: string, fileName: string, still: boolean): Promise<EmojiFile> {
    if (realmId !== String(await this.realm())) throw new EmojiFileNotFoundError();
    const row = still
      ? (await this.deps.repo.all()).find(
          (r) => r.stillStorageKey !== null && `${withoutExtension(r.fileName)}.png` === fileName,
        )
      : await this.deps.repo.byFileName(fileName);
    const key = still ? row?.stillStorageKey : row?.storageKey;
    const bytes = key === undefined || key === null ? undefined : await this.deps.storage.get(key);
    if (row === undefined || bytes === undefined) throw new EmojiFileNotFoundError();
    return { bytes, contentType: still ? "image/png" : row.contentType };
  }

  /** Zulip's notify_realm_emoji: the whole dict, to every active user. */
  private async notify(): Promise<void> {
    const recipients = await this.deps.users.activeUserIds();
    this.deps.events.send({ type: "realm_emoji", op: "update", realm_emoji: await this.all() }, recipients);
  }
}
