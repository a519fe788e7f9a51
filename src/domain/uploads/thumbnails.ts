/**
 * Thumbnails of uploaded images, as Zulip makes them (Zulip 9.0, feature level 273): one format,
 * `840x560.webp` (fit inside 840×560, never enlarged, EXIF orientation applied), made with sharp on
 * the first request and kept beside the file. A message linking an uploaded image gets Zulip's
 * preview markup, with the image's dimensions and type (render.ts).
 */
import { JsonableError } from "../../errors.js";

/** A thumbnail format as POST /register's `server_thumbnail_formats` lists it. */
export interface ThumbnailFormat {
  name: string;
  max_width: number;
  max_height: number;
  format: "webp";
  animated: boolean;
}

/** The formats this server makes (Zulip's default still format). */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
];

/** Images with more pixels are neither previewed nor thumbnailed (a decompression bomb). */
export const MAX_THUMBNAIL_INPUT_PIXELS = 8192 * 8192;

/** Types that are thumbnailed (the still image formats browsers show and sharp reads). */
const THUMBNAILABLE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function isThumbnailable(contentType: string): boolean {
  return THUMBNAILABLE.has(contentType);
}

/** What a preview shows of an uploaded image. */
export interface UploadedImage {
  width: number;
  height: number;
  contentType: string;
}

/** The storage key of a file's thumbnail in `format` (storage keys are `[A-Za-z0-9_-]+`). */
export function thumbnailKey(storageKey: string, format: string): string {
  return `${storageKey}-thumbnail-${format.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** An unknown thumbnail format (404, as Zulip's "Invalid thumbnail format"). */
export class ThumbnailFormatError extends JsonableError {
  override readonly httpStatus = 404;
  constructor() {
    super("Invalid thumbnail format");
  }
}

/** The image's dimensions (the first frame's, oriented), or undefined when it cannot be previewed. */
export async function imageDimensions(
  bytes: Uint8Array,
): Promise<{ width: number; height: number } | undefined> {
  const { default: sharp } = await import("sharp"); // loaded on the first image (about 25 MB)
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_THUMBNAIL_INPUT_PIXELS }).metadata();
    if (meta.width === undefined || meta.height === undefined) return undefined;
    const height = meta.pageHeight ?? meta.height;
    if (meta.width * height > MAX_THUMBNAIL_INPUT_PIXELS) return undefined;
    // EXIF orientations 5 to 8 turn the image a quarter: width and height swap.
    return (meta.orientation ?? 1) >= 5
      ? { width: height, height: meta.width }
      : { width: meta.width, height };
  } catch {
    return undefined;
  }
}

/** The thumbnail of an image in one of THUMBNAIL_FORMATS. */
export async function makeThumbnail(bytes: Uint8Array, format: ThumbnailFormat): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  return sharp(bytes, { limitInputPixels: MAX_THUMBNAIL_INPUT_PIXELS, pages: 1 })
    .rotate()
    .resize(format.max_width, format.max_height, { fit: "inside", withoutEnlargement: true })
    .webp()
    .toBuffer();
}
