import crypto from "node:crypto";
import { JsonableError } from "../../errors.js";

/** Zulip's DEFAULT_EMOJI_SIZE: custom emoji are stored as 64×64 images. */
export const EMOJI_SIZE = 64;

/** Image types a custom emoji may be (Zulip: thumbnail-able and shown inline by browsers). */
const EMOJI_TYPES: Readonly<
  Record<string, { format: "png" | "jpeg" | "gif" | "webp" | "avif"; ext: string }>
> = {
  "image/png": { format: "png", ext: "png" },
  "image/jpeg": { format: "jpeg", ext: "jpg" },
  "image/gif": { format: "gif", ext: "gif" },
  "image/webp": { format: "webp", ext: "webp" },
  "image/avif": { format: "avif", ext: "avif" },
};

/** Decoding stops above this many pixels (a decompression bomb), as Zulip's "Image size exceeds limit." */
const MAX_INPUT_PIXELS = 8192 * 8192;

/** A custom emoji's stored image: resized, with a still first frame when animated. */
export interface EmojiImage {
  bytes: Buffer;
  contentType: string;
  /** `<8 hex>.<ext>`, the last part of its URL. */
  fileName: string;
  /** PNG of the first frame, for animated images only (Zulip's still_url). */
  still: Buffer | undefined;
}

function badImage(): JsonableError {
  return new JsonableError("Could not decode image; did you upload an image file?");
}

/**
 * Zulip's upload_emoji_image: the type sniffed from the bytes (never the client's claim), then the
 * image cropped to fill 64×64 (EXIF orientation applied, animation kept) with sharp; an animated
 * image also gets its first frame as a PNG.
 */
export async function processEmojiImage(bytes: Uint8Array): Promise<EmojiImage> {
  const { fileTypeFromBuffer } = await import("file-type"); // loaded on the first upload
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected === undefined ? undefined : EMOJI_TYPES[detected.mime];
  if (detected === undefined || type === undefined) throw new JsonableError("Invalid image format");
  const { default: sharp } = await import("sharp"); // loaded on the first emoji upload (about 25 MB)
  const options = { animated: true, limitInputPixels: MAX_INPUT_PIXELS };
  let pages: number;
  try {
    pages = (await sharp(bytes, options).metadata()).pages ?? 1;
  } catch (err) {
    throw /pixel limit/i.test(String(err)) ? new JsonableError("Image size exceeds limit.") : badImage();
  }
  const animated = pages > 1;
  try {
    const resized = await sharp(bytes, options)
      .rotate()
      .resize(EMOJI_SIZE, EMOJI_SIZE, { fit: "cover" })
      .toFormat(type.format)
      .toBuffer();
    const still = animated
      ? await sharp(bytes, { pages: 1, limitInputPixels: MAX_INPUT_PIXELS })
          .resize(EMOJI_SIZE, EMOJI_SIZE, { fit: "cover" })
          .png()
          .toBuffer()
      : undefined;
    return {
      bytes: resized,
      contentType: detected.mime,
      fileName: `${crypto.randomBytes(4).toString("hex")}.${type.ext}`,
      still,
    };
  } catch (err) {
    throw /pixel limit/i.test(String(err)) ? new JsonableError("Image size exceeds limit.") : badImage();
  }
}
