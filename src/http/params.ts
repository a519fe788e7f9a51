import { JsonableError, RequestConfusingVarError, RequestVariableMissingError } from "../errors.js";
import { MAX_JSON_DEPTH, jsonTooDeep } from "./json-depth.js";

/**
 * Typed parsing of request arguments (query string merged with form/JSON body), with Zulip's error
 * texts: a missing argument is REQUEST_VARIABLE_MISSING naming it; a malformed one is a 400 that
 * names it ("stream_id is not an integer", 'Argument "narrow" is not valid JSON.').
 */
export type Params = Readonly<Record<string, string>>;

/** Parses one raw string argument; `name` is used in error messages. */
export type Parser<T> = (raw: string, name: string) => T;

interface Spec<T> {
  parse: Parser<T>;
  optional: boolean;
  fallback?: () => T;
  aliases?: readonly string[];
}

export type ArgSpec<T> = Parser<T> | Spec<T>;

type Parsed<S> = { [K in keyof S]: S[K] extends ArgSpec<infer T> ? T : never };

export function parseJson(raw: string, name: string): unknown {
  if (jsonTooDeep(raw))
    throw new JsonableError(`Argument "${name}" is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new JsonableError(`Argument "${name}" is not valid JSON.`);
  }
}

/**
 * Whether `JSON.parse(raw)` can possibly succeed, judged from its first non-blank character: a JSON
 * text starts with `[ { " -` or a digit, or is exactly `true`, `false` or `null` (JSON whitespace
 * around). A false answer means JSON.parse would throw.
 */
export function mayBeJson(raw: string): boolean {
  let i = 0;
  while (i < raw.length && isJsonSpace(raw.charCodeAt(i))) i++;
  const first = raw.charCodeAt(i);
  if (first === 0x5b || first === 0x7b || first === 0x22 || first === 0x2d) return true; // [ { " -
  if (first >= 0x30 && first <= 0x39) return true; // 0-9
  let end = raw.length;
  while (end > i && isJsonSpace(raw.charCodeAt(end - 1))) end--;
  const literal = raw.slice(i, end);
  return literal === "true" || literal === "false" || literal === "null";
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * `JSON.parse` that reports failure instead of throwing. Arguments that are usually not JSON (a
 * stream name such as `general`) skip the parse: a thrown and caught SyntaxError costs a stack
 * capture, which was ~4 % of a `POST /messages`.
 */
export function tryJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (!mayBeJson(raw) || jsonTooDeep(raw)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A plain string, taken as is. */
export const str: Parser<string> = (raw) => raw;

/** A JSON-encoded integer ("42"). */
export const int: Parser<number> = (raw, name) => {
  const v = parseJson(raw.trim(), name);
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new JsonableError(`${name} is not an integer`);
  return v;
};

export const nonNegativeInt: Parser<number> = (raw, name) => {
  const v = int(raw, name);
  if (v < 0) throw new JsonableError(`${name} is too small`);
  return v;
};

/** A JSON boolean ("true"/"false"). */
export const bool: Parser<boolean> = (raw, name) => {
  const v = parseJson(raw.trim(), name);
  if (typeof v !== "boolean") throw new JsonableError(`${name} is not a boolean`);
  return v;
};

/** Any JSON value. */
export const json: Parser<unknown> = (raw, name) => parseJson(raw, name);

/** A JSON object. */
export const jsonDict: Parser<Record<string, unknown>> = (raw, name) => {
  const v = parseJson(raw, name);
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new JsonableError(`${name} is not a dict`);
  return v as Record<string, unknown>;
};

/** Validates an already-decoded JSON value; `name` is its path for messages. */
export type Check<T> = (value: unknown, name: string) => T;

export const checkString: Check<string> = (v, name) => {
  if (typeof v !== "string") throw new JsonableError(`${name} is not a string`);
  return v;
};
export const checkInt: Check<number> = (v, name) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new JsonableError(`${name} is not an integer`);
  return v;
};
export const checkBool: Check<boolean> = (v, name) => {
  if (typeof v !== "boolean") throw new JsonableError(`${name} is not a boolean`);
  return v;
};
export const checkDict: Check<Record<string, unknown>> = (v, name) => {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new JsonableError(`${name} is not a dict`);
  return v as Record<string, unknown>;
};
export function checkList<T>(item: Check<T>): Check<T[]> {
  return (v, name) => {
    if (!Array.isArray(v)) throw new JsonableError(`${name} is not a list`);
    return v.map((x, i) => item(x, `${name}[${i}]`));
  };
}
export function checkUnion<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return (v, name) => {
    try {
      return a(v, name);
    } catch {
      return b(v, name);
    }
  };
}

/** A JSON-encoded list whose items pass `item`: `jsonList(checkString)`. */
export function jsonList<T>(item: Check<T>): Parser<T[]> {
  const check = checkList(item);
  return (raw, name) => check(parseJson(raw, name), name);
}

/** A JSON value validated by `check`. */
export function jsonOf<T>(check: Check<T>): Parser<T> {
  return (raw, name) => check(parseJson(raw, name), name);
}

/** One of fixed string values: "Invalid op: 'x'"-style errors name the argument. */
export function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return (raw, name) => {
    if (!(values as readonly string[]).includes(raw)) {
      throw new JsonableError(`Invalid ${name}: '${raw}'`);
    }
    return raw as T;
  };
}

/** Marks an argument optional: absent → `fallback` (or undefined). */
export function optional<T>(parse: Parser<T>): Spec<T | undefined>;
export function optional<T>(parse: Parser<T>, fallback: T): Spec<T>;
export function optional<T>(parse: Parser<T>, fallback?: T): Spec<T | undefined> {
  return fallback === undefined
    ? { parse, optional: true }
    : { parse, optional: true, fallback: () => fallback };
}

/** Accepts a legacy alias too (`topic` / `subject`); both given → REQUEST_CONFUSING_VAR. */
export function withAlias<T>(spec: ArgSpec<T>, ...aliases: string[]): Spec<T> {
  const base: Spec<T> = typeof spec === "function" ? { parse: spec, optional: false } : spec;
  return { ...base, aliases };
}

/** Parses `params` against `specs`; the result's keys are the spec's keys. */
export function parseArgs<S extends Record<string, ArgSpec<unknown>>>(params: Params, specs: S): Parsed<S> {
  const out: Record<string, unknown> = {};
  for (const [name, specOrParser] of Object.entries(specs)) {
    const spec: Spec<unknown> =
      typeof specOrParser === "function" ? { parse: specOrParser, optional: false } : specOrParser;
    let usedName = name;
    let raw = params[name];
    for (const alias of spec.aliases ?? []) {
      const aliasRaw = params[alias];
      if (aliasRaw === undefined) continue;
      if (raw !== undefined) throw new RequestConfusingVarError(usedName, alias);
      raw = aliasRaw;
      usedName = alias;
    }
    if (raw === undefined) {
      if (!spec.optional) throw new RequestVariableMissingError(name);
      out[name] = spec.fallback ? spec.fallback() : undefined;
      continue;
    }
    out[name] = spec.parse(raw, usedName);
  }
  return out as Parsed<S>;
}
