/**
 * JSON as Python sees it: Zulip's integrations parse payloads with `json.loads` and print values with
 * `str()` / `json.dumps()`, which tell integers from floats (`1` vs `1.0`), keep integers of any
 * size exactly, and print floats with Python's `repr`. `JSON.parse` loses all three, so integrations
 * that echo numbers byte for byte (the JSON formatter) parse the raw body with `parsePythonJson`.
 */

/** A JSON integer, kept exactly (Python ints have no size limit). */
export class PyInt {
  constructor(readonly value: bigint) {}
  toString(): string {
    return this.value.toString();
  }
}

/** A JSON number with a fraction or an exponent: a Python float. */
export class PyFloat {
  constructor(readonly value: number) {}
  toString(): string {
    return pythonFloatRepr(this.value);
  }
}

export type PyJson = null | boolean | string | PyInt | PyFloat | PyJson[] | PyObject;

/** A JSON object; keys keep their first position and their last value, as in a Python dict. */
export class PyObject {
  readonly entries = new Map<string, PyJson>();
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (n === Infinity) return "inf";
  if (n === -Infinity) return "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const sign = n < 0 ? "-" : "";
  const [mantissa = "", expText = "0"] = Math.abs(n).toExponential().split("e");
  const exp = Number(expText);
  const digits = mantissa.replace(".", "");
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0] ?? ""}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === "" ? "0" : frac}`;
}

/** Python's `str()` of a number parsed by `JSON.parse`: integers as ints, the rest as floats. */
export function pythonNumberStr(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : pythonFloatRepr(n);
}

class JsonSyntaxError extends Error {}

/** Parses JSON text like Python's `json.loads` (accepting NaN and ±Infinity). Throws on bad JSON. */
export function parsePythonJson(text: string): PyJson {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const fail = (): never => {
    throw new JsonSyntaxError(`Invalid JSON at position ${i}`);
  };
  const literal = (word: string): boolean => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return true;
    }
    return false;
  };
  const parseString = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      const ch = text[i];
      if (ch === undefined) return fail();
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === "\\") {
        const esc = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (esc !== undefined && simple[esc] !== undefined) {
          out += simple[esc];
          i += 2;
        } else if (esc === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail();
        }
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) fail();
      out += ch;
      i++;
    }
  };
  const parseNumber = (): PyInt | PyFloat => {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (m === null) return fail();
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return new PyInt(BigInt(m[0]));
    return new PyFloat(Number(m[0]));
  };
  const parseValue = (): PyJson => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      i++;
      const obj = new PyObject();
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = parseString();
        ws();
        if (text[i] !== ":") fail();
        i++;
        obj.entries.set(key, parseValue());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail();
      }
    }
    if (ch === "[") {
      i++;
      const arr: PyJson[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail();
      }
    }
    if (ch === '"') return parseString();
    if (literal("null")) return null;
    if (literal("true")) return true;
    if (literal("false")) return false;
    if (literal("NaN")) return new PyFloat(NaN);
    if (literal("Infinity")) return new PyFloat(Infinity);
    if (literal("-Infinity")) return new PyFloat(-Infinity);
    return parseNumber();
  };
  const value = parseValue();
  ws();
  if (i !== text.length) fail();
  return value;
}

/** A string as `json.dumps` writes it with `ensure_ascii=True`. */
export function pythonJsonString(s: string): string {
  const short: Record<string, string> = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
  };
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const ch = s[k] ?? "";
    const code = s.charCodeAt(k);
    const esc = short[ch];
    if (esc !== undefined) out += esc;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function floatJson(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (n === Infinity) return "Infinity";
  if (n === -Infinity) return "-Infinity";
  return pythonFloatRepr(n);
}

/** Python's `json.dumps(value, indent=indent)` (separators ", " / ": " as Python picks them). */
export function pythonJsonDumps(value: PyJson, indent = 2, level = 0): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pythonJsonString(value);
  if (value instanceof PyInt) return value.toString();
  if (value instanceof PyFloat) return floatJson(value.value);
  const inner = "\n" + " ".repeat(indent * (level + 1));
  const outer = "\n" + " ".repeat(indent * level);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${inner}${value.map((v) => pythonJsonDumps(v, indent, level + 1)).join(`,${inner}`)}${outer}]`;
  }
  if (value.entries.size === 0) return "{}";
  const items = [...value.entries].map(
    ([k, v]) => `${pythonJsonString(k)}: ${pythonJsonDumps(v, indent, level + 1)}`,
  );
  return `{${inner}${items.join(`,${inner}`)}${outer}}`;
}

/** Converts a value from `JSON.parse` (numbers as Python would read them back from their text). */
export function fromJsValue(value: unknown): PyJson {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") {
    return Number.isInteger(value) && Math.abs(value) < 2 ** 53
      ? new PyInt(BigInt(value))
      : new PyFloat(value);
  }
  if (Array.isArray(value)) return value.map(fromJsValue);
  const obj = new PyObject();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) obj.entries.set(k, fromJsValue(v));
  return obj;
}

/** Python's `repr()` of a string: single quotes unless the text has one and no double quote. */
function pythonStringRepr(s: string): string {
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

/**
 * Python's `repr()` of a JSON value, parsed either way (`parsePythonJson`'s PyJson or `JSON.parse`'s
 * plain values): what `str()` shows of the strings inside a list or a dict.
 */
export function pythonRepr(value: unknown): string {
  if (typeof value === "string") return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  const entries =
    value instanceof PyObject
      ? [...value.entries]
      : typeof value === "object" && value !== null && !(value instanceof PyInt || value instanceof PyFloat)
        ? Object.entries(value)
        : undefined;
  if (entries !== undefined) {
    return `{${entries.map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`).join(", ")}}`;
  }
  return pythonStr(value);
}

/** Python's `str()` of a JSON value, parsed either way (see `pythonRepr`); a missing value is `None`. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pythonNumberStr(value);
  if (value instanceof PyInt) return value.toString();
  if (value instanceof PyFloat) return pythonFloatRepr(value.value);
  return pythonRepr(value);
}
