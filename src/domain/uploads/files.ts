import crypto from "node:crypto";

/** Zulip's sanitize_name: word characters, spaces, dots and dashes; runs of spaces/dashes → "-". */
export function sanitizeFileName(name: string): string {
  const base = name.normalize("NFKC").split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[^\p{L}\p{N}_\s.-]/gu, "")
    .trim()
    .replace(/[-\s]+/g, "-");
  return cleaned === "" || /^\.+$/.test(cleaned) ? "uploaded-file" : cleaned;
}

/** A random URL-safe segment of 24 characters (the unguessable part of an upload's URL). */
export function randomSegment(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/** Zulip's path_id: `<realm id>/<2 hex>/<random>/<file name>`. */
export function newPathId(realmId: number, fileName: string): { pathId: string; storageKey: string } {
  const storageKey = randomSegment();
  const hex = crypto.randomBytes(1).toString("hex");
  return { pathId: `${realmId}/${hex}/${storageKey}/${fileName}`, storageKey };
}

/** The path ids of `/user_uploads/…` links in a message's Markdown, in order, without repeats. */
export function linkedPathIds(content: string): string[] {
  const out = new Set<string>();
  const re = /\/user_uploads\/(\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]+\/[^\s)\]"'<>]+)/g;
  for (let m = re.exec(content); m !== null; m = re.exec(content)) {
    try {
      out.add(decodeURIComponent(m[1] ?? ""));
    } catch {
      out.add(m[1] ?? "");
    }
  }
  return [...out];
}

/** Types a browser shows inline without running anything: raster images, audio, video, PDF. */
const INLINE_TYPES =
  /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf)$/;

/** Whether a stored content type is served inline (otherwise as a download). */
export function isInline(contentType: string): boolean {
  return INLINE_TYPES.test(contentType);
}

/** What the bytes are (sniffed, never the client's claim) and how to serve them. */
export async function sniff(bytes: Uint8Array): Promise<{ contentType: string; inline: boolean }> {
  const { fileTypeFromBuffer } = await import("file-type"); // loaded on the first upload
  const detected = await fileTypeFromBuffer(bytes);
  if (detected !== undefined) return { contentType: detected.mime, inline: isInline(detected.mime) };
  // Text (HTML and SVG included) is served as plain text, and as a download.
  const text = !bytes.includes(0) && isUtf8(bytes);
  return { contentType: text ? "text/plain; charset=utf-8" : "application/octet-stream", inline: false };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A Content-Disposition header naming the file (RFC 6266, UTF-8). */
export function contentDisposition(inline: boolean, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
