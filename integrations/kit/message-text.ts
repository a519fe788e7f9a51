/**
 * What Zulip does to every webhook message before storing it, for integrations whose handlers must
 * produce the stored text exactly: topics truncated to 60 characters, bodies stripped.
 */

/** Zulip's MAX_TOPIC_NAME_LENGTH. */
export const MAX_TOPIC_LENGTH = 60;

/** Zulip's `truncate_topic`: longer topics keep 57 characters (code points) and end with "...". */
export function truncateTopic(topic: string): string {
  const chars = Array.from(topic);
  return chars.length > MAX_TOPIC_LENGTH ? chars.slice(0, MAX_TOPIC_LENGTH - 3).join("") + "..." : topic;
}

/** Whether Python's `str.isspace()` holds for a character (JS `\s` plus U+001C–U+001F and U+0085). */
function isPythonSpace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return (code >= 0x1c && code <= 0x1f) || code === 0x85 || (/\s/.test(ch) && code !== 0xfeff);
}

/** Python's `str.rstrip()`. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPythonSpace(s[end - 1] ?? "")) end--;
  return s.slice(0, end);
}

/** Python's `str.strip()` (Unicode whitespace). */
export function pyStrip(s: string): string {
  let start = 0;
  while (start < s.length && isPythonSpace(s[start] ?? "")) start++;
  return pyRstrip(s.slice(start));
}

/** Zulip's MAX_MESSAGE_LENGTH. */
export const MAX_MESSAGE_LENGTH = 10000;

/** Zulip's `truncate_content`: longer text is cut (in code points) to end with the marker. */
export function truncateContent(content: string, maxLength: number, marker: string): string {
  const chars = Array.from(content);
  if (chars.length <= maxLength) return content;
  return chars.slice(0, maxLength - Array.from(marker).length).join("") + marker;
}

/**
 * Zulip's `normalize_body`: trailing whitespace and leading newlines removed, and bodies longer
 * than 10000 characters truncated with "\n[message truncated]".
 */
export function normalizeBody(body: string): string {
  return truncateContent(pyRstrip(body).replace(/^\n+/, ""), MAX_MESSAGE_LENGTH, "\n[message truncated]");
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** A Unix timestamp (seconds) as Python's `datetime.fromtimestamp(ts, timezone.utc).isoformat()`. */
export function unixToIso(seconds: number, withFraction = false): string {
  const whole = Math.floor(seconds);
  const d = new Date(whole * 1000);
  const base =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const micros = Math.round((seconds - whole) * 1e6);
  return `${base}${withFraction && micros > 0 ? `.${pad(micros, 6)}` : ""}+00:00`;
}

/**
 * An ISO 8601 timestamp with its fraction dropped and `Z` written `+00:00`, as Python's
 * `isoformat(timespec="seconds")` prints it (the offset is kept). Unparseable text is returned as is.
 */
export function isoToSeconds(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:[.,]\d+)?\s*(Z|[+-]\d\d:?\d\d)?$/i.exec(
    iso.trim(),
  );
  if (m === null) return iso;
  const time = (m[2] ?? "").length === 5 ? `${m[2] ?? ""}:00` : (m[2] ?? "");
  const tz = m[3];
  const offset =
    tz === undefined
      ? ""
      : tz.toUpperCase() === "Z"
        ? "+00:00"
        : tz.includes(":")
          ? tz
          : `${tz.slice(0, 3)}:${tz.slice(3)}`;
  return `${m[1] ?? ""}T${time}${offset}`;
}
