/**
 * Checks API responses against Zulip's published OpenAPI schemas (extracted into
 * test/data/openapi-schemas.json by scripts/extract-openapi-schemas.ts). The shared HTTP test client
 * (client.ts) calls `assertZulipSchema` for every response, so every HTTP test doubles as a
 * compatibility test.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";

type Schema = Record<string, unknown>;

interface SchemaFile {
  featureLevel: number;
  commonErrors: { anyOf: Schema[] };
  endpoints: Record<string, { zulip: string; responses: Record<string, Schema> }>;
}

let loaded: SchemaFile | undefined;
function schemaFile(): SchemaFile {
  loaded ??= JSON.parse(
    readFileSync(new URL("../data/openapi-schemas.json", import.meta.url), "utf8"),
  ) as SchemaFile;
  return loaded;
}

const API_PREFIX = "/api/v1";

interface Template {
  key: string;
  method: string;
  segments: string[];
  literals: number;
}

let templates: Template[] | undefined;
function allTemplates(): Template[] {
  templates ??= Object.keys(schemaFile().endpoints).map((key) => {
    const [method = "", path = ""] = key.split(" ");
    const segments = path.split("/").slice(1);
    return { key, method, segments, literals: segments.filter((s) => !s.startsWith("{")).length };
  });
  return templates;
}

/** How a path parameter's value looks: IDs are integers, `{email}` holds an "@". */
function matchesParam(name: string, value: string): boolean {
  if (name.endsWith("_id")) return /^\d+$/.test(value);
  if (name === "email") return value.includes("@");
  return value !== "";
}

/**
 * The endpoint key (method + path template, e.g. "GET /messages/{message_id}/history") of a concrete
 * request path such as "/api/v1/messages/42/history?x=1", or undefined when we have no schema for it.
 * Literal segments win over parameters (`/users/me` is not `/users/{email}`).
 */
export function endpointOf(method: string, path: string): string | undefined {
  const bare = path.split(/[?#]/, 1)[0] ?? "";
  if (!bare.startsWith(API_PREFIX + "/")) return undefined;
  let segments: string[];
  try {
    segments = bare
      .slice(API_PREFIX.length)
      .replace(/\/+$/, "")
      .split("/")
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  let best: Template | undefined;
  for (const t of allTemplates()) {
    if (t.method !== method.toUpperCase() || t.segments.length !== segments.length) continue;
    const ok = t.segments.every((seg, i) => {
      const value = segments[i] ?? "";
      return seg.startsWith("{") ? matchesParam(seg.slice(1, -1), value) : seg === value;
    });
    if (ok && (best === undefined || t.literals > best.literals)) best = t;
  }
  return best?.key;
}

const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const compiled = new Map<string, ValidateFunction>();
function validator(cacheKey: string, schema: Schema): ValidateFunction {
  let v = compiled.get(cacheKey);
  if (v === undefined) {
    v = ajv.compile(schema);
    compiled.set(cacheKey, v);
  }
  return v;
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath === "" ? "(body)" : e.instancePath;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === "additionalProperties")
    return `${at}: unexpected field "${String(params["additionalProperty"])}"`;
  if (e.keyword === "required") return `${at}: missing field "${String(params["missingProperty"])}"`;
  if (e.keyword === "enum")
    return `${at}: ${e.message ?? "not allowed"} ${JSON.stringify(params["allowedValues"])}`;
  return `${at}: ${e.message ?? e.keyword}`;
}

/**
 * Ajv reports the failures of every alternative of an anyOf (Zulip's events list one alternative per
 * `type` and `op`). Alternatives rejected because their `type` or `op` differs are not what the reader
 * wants: they are dropped, leaving the failures of the alternatives meant for this value.
 */
function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  const all = (errors ?? []).filter((e) => e.keyword !== "anyOf");
  const discriminated = new Set<string>();
  for (const e of all) {
    if (e.keyword !== "enum" || !/\/(type|op)$/.test(e.instancePath)) continue;
    const branch = /^(.*\/anyOf\/\d+)\//.exec(e.schemaPath);
    if (branch?.[1] !== undefined) discriminated.add(branch[1] + "/");
  }
  const kept = all.filter((e) => ![...discriminated].some((b) => e.schemaPath.startsWith(b)));
  let lines = [...new Set(kept.map(describeError))];
  if (kept.length === 0 && all.length > 0) {
    // Every alternative was rejected on its `type`/`op`: name the values no alternative has.
    const values = new Map<string, string>();
    for (const e of all) {
      const m = /^(.*)\/(type|op)$/.exec(e.instancePath);
      if (e.keyword === "enum" && m?.[1] !== undefined && m[2] !== undefined) {
        values.set(`${m[1]} ${m[2]}`, `${m[1] === "" ? "(body)" : m[1]}: ${m[2]} ${JSON.stringify(e.data)}`);
      }
    }
    lines = [`no alternative of the schema accepts ${[...values.values()].join(", ")}`];
  }
  return lines.length > 20 ? [...lines.slice(0, 20), `… and ${lines.length - 20} more`] : lines;
}

export interface SchemaMismatch {
  /** Our method and path template, e.g. "GET /users/{user_id}". */
  endpoint: string;
  /** Zulip's operation the schema comes from. */
  zulip: string;
  status: number;
  problems: string[];
}

/**
 * Checks one response. Returns undefined when it matches, or when no schema applies (a path we have
 * no schema for, a status we have no schema for).
 */
export function checkZulipSchema(
  method: string,
  path: string,
  status: number,
  body: unknown,
): SchemaMismatch | undefined {
  const endpoint = endpointOf(method, path);
  if (endpoint === undefined) return undefined;
  const entry = schemaFile().endpoints[endpoint];
  if (entry === undefined) return undefined;
  const mismatch = (problems: string[]): SchemaMismatch => ({
    endpoint,
    zulip: entry.zulip,
    status,
    problems,
  });

  if (status >= 200 && status < 300) {
    const schema = entry.responses[String(status)];
    if (schema === undefined) return undefined;
    if (body === undefined) return mismatch(["the body is not JSON"]);
    const v = validator(`${endpoint} ${status}`, schema);
    return v(body) ? undefined : mismatch(describeErrors(v.errors));
  }
  // Zulip documents no 5xx body; a server error is the test's own failure to report.
  if (status < 400 || status >= 500) return undefined;
  if (body === undefined) return mismatch(["the error body is not JSON"]);
  // An endpoint's own error schemas are examples; any of Zulip's error schemas may answer.
  const own = entry.responses[String(status)];
  const branches =
    own === undefined ? schemaFile().commonErrors.anyOf : [own, ...schemaFile().commonErrors.anyOf];
  let closest: string[] | undefined;
  for (const [i, schema] of branches.entries()) {
    const key =
      i === 0 && own !== undefined
        ? `${endpoint} ${status}`
        : `common error ${own === undefined ? i : i - 1}`;
    const v = validator(key, schema);
    if (v(body)) return undefined;
    const problems = describeErrors(v.errors);
    if (closest === undefined || problems.length < closest.length) closest = problems;
  }
  return mismatch([`matches none of Zulip's error schemas; closest:`, ...(closest ?? [])]);
}

/** A readable failure: endpoint, status, the problems, and the body (cut short). */
export function formatMismatch(method: string, path: string, m: SchemaMismatch, body: unknown): string {
  const text = JSON.stringify(body);
  const shown = text.length > 600 ? text.slice(0, 600) + "…" : text;
  return [
    `Response to ${method.toUpperCase()} ${path} (${m.endpoint}, HTTP ${m.status}) does not match Zulip's ` +
      `OpenAPI schema for ${m.zulip} (test/data/openapi-schemas.json):`,
    ...m.problems.map((p) => `  - ${p}`),
    `  body: ${shown}`,
    `(A test that deliberately provokes a nonconforming response can pass { skipSchemaCheck: true }.)`,
  ].join("\n");
}

/**
 * Throws when the response does not match Zulip's schema for its endpoint, unless the request opted
 * out (`skipped`). With OPENAPI_CHECK_LOG set to a file path, appends one line per response of an
 * endpoint with a schema to that file, opted-out ones included (checked, logged, never thrown): an
 * audit of the whole suite, e.g. `OPENAPI_CHECK_LOG=/tmp/openapi.log npm test`. Checking the opted-out
 * responses costs time (compiling the GET /events schema takes ~0.5 s), so a test that times a
 * response may fail in an audit run only.
 */
export function assertZulipSchema(
  method: string,
  path: string,
  status: number,
  body: unknown,
  opts: { skipped?: boolean } = {},
): void {
  const log = process.env["OPENAPI_CHECK_LOG"];
  const logging = log !== undefined && log !== "";
  if (opts.skipped === true && !logging) return;
  const m = checkZulipSchema(method, path, status, body);
  if (logging) {
    const endpoint = endpointOf(method, path);
    if (endpoint !== undefined) {
      const verdict = m === undefined ? "ok" : `MISMATCH ${m.problems.join(" | ")}\t${JSON.stringify(body)}`;
      appendFileSync(log, `${endpoint}\t${status}\t${opts.skipped === true ? "skipped, " : ""}${verdict}\n`);
    }
  }
  if (m !== undefined && opts.skipped !== true) throw new Error(formatMismatch(method, path, m, body));
}
