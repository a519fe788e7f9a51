import crypto from "node:crypto";
import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { StoredAttachment } from "../../store/attachments-repo.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { User } from "../users/types.js";
import { isInline, newPathId, sanitizeFileName, sniff } from "./files.js";
import type { UploadStorage } from "./storage.js";
import { attachmentWire } from "../../wire/uploads.js";
import {
  THUMBNAIL_FORMATS,
  ThumbnailFormatError,
  imageDimensions,
  isThumbnailable,
  makeThumbnail,
  thumbnailKey,
} from "./thumbnails.js";
import type { UploadedImage } from "./thumbnails.js";
import type { AttachmentView } from "./types.js";

/** What the uploads area needs of the messages area: whether a user may read a message. */
export interface MessageReadCheck {
  canRead(user: User, messageId: number): Promise<boolean>;
}

export interface UploadServiceDeps {
  store: RepoStore;
  storage: UploadStorage;
  events: EventSink;
  clock: Clock;
  messages: MessageReadCheck;
  realmId: () => Promise<number>;
  /** --max-file-upload-mb (MiB). */
  maxFileUploadMib: number;
  /** --max-upload-storage-per-user (MiB): the bytes of one user's uploads together; 0 or absent: no cap. */
  maxStoragePerUserMib?: number | undefined;
  /**
   * The key that signs temporary URLs. One shared by every process with `--redis` (any process
   * honours a URL another issued); by default a random one of this process.
   */
  urlSecret?: Buffer | undefined;
}

/** An uploaded file as POST /user_uploads answers it. */
export interface UploadResult {
  url: string;
  fileName: string;
}

/** A file to serve. */
export interface ServedFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
  inline: boolean;
}

/** Zulip's "file not found" for files a user may not see, so their existence does not leak. */
export class UploadNotFoundError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("File not found");
  }
}

/**
 * Uploads (Zulip's user_uploads and attachments): storing files, serving them to their uploader
 * and to users who may read a message linking them, listing and deleting one's own.
 */
export class UploadService {
  /** Signs temporary URLs. */
  private readonly urlSecret: Buffer;

  constructor(private readonly deps: UploadServiceDeps) {
    this.urlSecret = deps.urlSecret ?? crypto.randomBytes(32);
  }

  /** Seconds a temporary URL stays valid (Zulip's 60). */
  static readonly TEMPORARY_URL_SECONDS = 60;

  /**
   * GET /user_uploads/{realm_id}/{filename} (API): a URL that serves the file without
   * authentication for 60 seconds, for a user who may see the file.
   */
  async temporaryUrl(user: User, pathId: string): Promise<string> {
    const attachment = await this.deps.store.read.attachments.byPathId(pathId);
    if (attachment === undefined || !(await this.mayRead(user, attachment))) throw new UploadNotFoundError();
    const expires = Math.floor(this.deps.clock.now() / 1000) + UploadService.TEMPORARY_URL_SECONDS;
    const payload = Buffer.from(JSON.stringify([attachment.pathId, expires])).toString("base64url");
    return `/user_uploads/temporary/${payload}.${this.sign(payload)}/${encodeURIComponent(attachment.fileName)}`;
  }

  /** Serves a temporary URL's file while its signature holds and it has not expired. */
  async serveTemporary(token: string): Promise<ServedFile> {
    const [payload = "", signature = ""] = token.split(".");
    const expected = this.sign(payload);
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, Buffer.from(expected))) {
      throw new UploadNotFoundError();
    }
    const [pathId, expires] = JSON.parse(Buffer.from(payload, "base64url").toString()) as [string, number];
    if (Math.floor(this.deps.clock.now() / 1000) > expires) throw new UploadNotFoundError();
    return this.load(await this.deps.store.read.attachments.byPathId(pathId));
  }

  private sign(payload: string): string {
    return crypto.createHmac("sha256", this.urlSecret).update(payload).digest("base64url");
  }

  private async load(attachment: StoredAttachment | undefined): Promise<ServedFile> {
    if (attachment === undefined) throw new UploadNotFoundError();
    const bytes = await this.deps.storage.get(attachment.storageKey);
    if (bytes === undefined) throw new UploadNotFoundError();
    return {
      bytes,
      contentType: attachment.contentType,
      fileName: attachment.fileName,
      inline: isInline(attachment.contentType),
    };
  }

  get maxFileUploadMib(): number {
    return this.deps.maxFileUploadMib;
  }

  /** POST /user_uploads: stores one file; the type is sniffed from its bytes. */
  async upload(user: User, file: { name: string; bytes: Uint8Array }): Promise<UploadResult> {
    if (file.bytes.length > this.deps.maxFileUploadMib * 1024 * 1024) {
      throw new JsonableError(
        `Uploaded file is larger than the allowed limit of ${this.deps.maxFileUploadMib} MiB`,
      );
    }
    const fileName = sanitizeFileName(file.name);
    const { pathId, storageKey } = newPathId(await this.deps.realmId(), fileName);
    const { contentType } = await sniff(file.bytes);
    await this.deps.storage.put(storageKey, file.bytes);
    let attachment: StoredAttachment;
    try {
      attachment = await this.deps.store.transaction(async ({ attachments }) => {
        const quotaMib = this.deps.maxStoragePerUserMib ?? 0;
        if (
          quotaMib > 0 &&
          (await attachments.spaceUsedBy(user.id)) + file.bytes.length > quotaMib * 1024 * 1024
        ) {
          throw new JsonableError(`Upload would exceed your storage quota of ${quotaMib} MiB.`);
        }
        return attachments.insert({
          pathId,
          storageKey,
          fileName,
          size: file.bytes.length,
          contentType,
          ownerId: user.id,
          createTimeMs: this.deps.clock.now(),
        });
      });
    } catch (err) {
      await this.deps.storage.delete(storageKey);
      throw err;
    }
    await this.publish(user.id, "add", { attachment, messages: [] });
    return { url: `/user_uploads/${pathId}`, fileName };
  }

  /**
   * GET /user_uploads/{path}: the file, for its uploader or a user who may read a message linking
   * it; "File not found" otherwise.
   */
  async serve(user: User, pathId: string): Promise<ServedFile> {
    const attachment = await this.deps.store.read.attachments.byPathId(pathId);
    if (attachment === undefined || !(await this.mayRead(user, attachment))) throw new UploadNotFoundError();
    return this.load(attachment);
  }

  /**
   * GET /user_uploads/thumbnail/{path}/{format}: the image's thumbnail, to whoever may see the
   * file; made on the first request and kept beside it.
   */
  async thumbnail(user: User, pathId: string, formatName: string): Promise<ServedFile> {
    const format = THUMBNAIL_FORMATS.find((f) => f.name === formatName);
    if (format === undefined) throw new ThumbnailFormatError();
    const attachment = await this.deps.store.read.attachments.byPathId(pathId);
    if (attachment === undefined || !(await this.mayRead(user, attachment))) throw new UploadNotFoundError();
    if (!isThumbnailable(attachment.contentType)) throw new UploadNotFoundError();
    const key = thumbnailKey(attachment.storageKey, format.name);
    let bytes = await this.deps.storage.get(key);
    if (bytes === undefined) {
      const original = await this.deps.storage.get(attachment.storageKey);
      if (original === undefined || (await imageDimensions(original)) === undefined) {
        throw new UploadNotFoundError();
      }
      bytes = await makeThumbnail(original, format);
      // Kept for the next request; two first requests at once both make it, one keeps it.
      await this.deps.storage.put(key, bytes).catch(() => undefined);
    }
    return { bytes, contentType: "image/webp", fileName: format.name, inline: true };
  }

  /**
   * The uploaded images among `pathIds` that a message's preview can show (src/domain/markdown
   * renders Zulip's preview for them): their dimensions and type.
   */
  async uploadedImages(pathIds: readonly string[]): Promise<Map<string, UploadedImage>> {
    const out = new Map<string, UploadedImage>();
    for (const pathId of pathIds) {
      const attachment = await this.deps.store.read.attachments.byPathId(pathId);
      if (attachment === undefined || !isThumbnailable(attachment.contentType)) continue;
      const bytes = await this.deps.storage.get(attachment.storageKey);
      const size = bytes === undefined ? undefined : await imageDimensions(bytes);
      if (size !== undefined) out.set(pathId, { ...size, contentType: attachment.contentType });
    }
    return out;
  }

  private async mayRead(user: User, attachment: StoredAttachment): Promise<boolean> {
    if (attachment.ownerId === user.id) return true;
    for (const id of await this.deps.store.read.attachments.messageIds(attachment.id)) {
      if (await this.deps.messages.canRead(user, id)) return true;
    }
    return false;
  }

  /** GET /attachments: the user's uploads with the messages linking them, and the space used. */
  async list(user: User): Promise<{ attachments: AttachmentView[]; spaceUsed: number }> {
    const repo = this.deps.store.read.attachments;
    const mine = await repo.ofOwner(user.id);
    const links = await repo.messagesOf(mine.map((a) => a.id));
    return {
      attachments: mine.map((attachment) => ({ attachment, messages: links.get(attachment.id) ?? [] })),
      spaceUsed: await repo.spaceUsed(),
    };
  }

  /** DELETE /attachments/{id}: only the uploader's own; "Invalid attachment" otherwise. */
  async delete(user: User, id: number): Promise<void> {
    const attachment = await this.deps.store.read.attachments.byId(id);
    if (attachment === undefined || attachment.ownerId !== user.id)
      throw new JsonableError("Invalid attachment");
    await this.deps.store.transaction(({ attachments }) => attachments.delete(id));
    await this.deps.storage.delete(attachment.storageKey);
    for (const f of THUMBNAIL_FORMATS)
      await this.deps.storage.delete(thumbnailKey(attachment.storageKey, f.name));
    await this.publish(user.id, "remove", { attachment, messages: [] });
  }

  /** After a message is sent: an `attachment` update event for each upload of the sender it links. */
  async noteMessage(ownerId: number, messageId: number): Promise<void> {
    const repo = this.deps.store.read.attachments;
    const attachmentIds = await repo.linkedTo(messageId);
    if (attachmentIds.length === 0) return;
    const links = await repo.messagesOf(attachmentIds);
    for (const id of attachmentIds) {
      const attachment = await repo.byId(id);
      if (attachment !== undefined) {
        await this.publish(ownerId, "update", { attachment, messages: links.get(id) ?? [] });
      }
    }
  }

  private async publish(
    userId: number,
    op: "add" | "remove" | "update",
    view: AttachmentView,
  ): Promise<void> {
    const spaceUsed = await this.deps.store.read.attachments.spaceUsed();
    this.deps.events.send(
      {
        type: "attachment",
        op,
        attachment: op === "remove" ? { id: view.attachment.id } : attachmentWire(view),
        upload_space_used: spaceUsed,
      },
      [userId],
    );
  }
}
