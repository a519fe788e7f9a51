import { pythonNumberStr } from "../kit/python-json.js";

/** Python's `repr()` of a JSON string: single quotes unless the text has one and no double quote. */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) {
      out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`;
    } else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's `repr()` of a parsed JSON value (dicts, lists and strings inside `str()` of a container). */
export function pythonRepr(value: unknown): string {
  if (typeof value === "string") return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const parts = Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`);
    return `{${parts.join(", ")}}`;
  }
  return pythonStr(value);
}

/** Python's `str()` of a parsed JSON value. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return value;
  if (typeof value === "number") return pythonNumberStr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  return pythonRepr(value);
}
