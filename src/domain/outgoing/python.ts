/**
 * Python formatting that Zulip's owner notices show verbatim: `repr()` of the response content
 * (bytes for a non-2xx answer, str when the JSON was bad) and `str()` of a JSON value.
 */

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function pickQuote(text: string): string {
  return text.includes("'") && !text.includes('"') ? '"' : "'";
}

/** `repr(s)` of a Python str. */
export function pyStrRepr(text: string): string {
  const quote = pickQuote(text);
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if (ch === quote) out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code >= 0x80 && code < 0xa0) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return quote + out + quote;
}

/** `repr(b)` of Python bytes: printable ASCII as is, everything else `\xNN`. */
export function pyBytesRepr(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString("latin1");
  const quote = pickQuote(text);
  let out = "";
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    if (ESCAPES[ch] !== undefined) out += ESCAPES[ch];
    else if (ch === quote) out += `\\${ch}`;
    else if (byte < 0x20 || byte >= 0x7f) out += `\\x${byte.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `b${quote}${out}${quote}`;
}

/** `str(value)` of a decoded JSON value. */
export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}

/** Python truthiness of a decoded JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}
