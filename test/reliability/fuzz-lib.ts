/**
 * Shared pieces of the reliability suites: the routes of the running app (enumerated from its
 * routers, never a hand list), hostile values, a raw HTTP client, and a digest of the database.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import type { Db } from "../../src/store/db.js";
import type { Services } from "../../src/services.js";
import { authenticatedRouters, publicRouters } from "../../src/http/routes/index.js";

export interface Route {
  methods: string[];
  /** Koa path with `:params`. */
  path: string;
  params: string[];
  authenticated: boolean;
}

/** Every route of the app's routers, public and authenticated (new routers appear by themselves). */
export function appRoutes(services: Services): Route[] {
  const out: Route[] = [];
  const add = (
    routers: readonly {
      stack: readonly { methods: string[]; path: string | RegExp; paramNames: { name: string }[] }[];
    }[],
    authenticated: boolean,
  ): void => {
    for (const router of routers) {
      for (const layer of router.stack) {
        // router.use() middleware and RegExp routes are not routes to fuzz by path.
        if (layer.methods.length === 0 || typeof layer.path !== "string") continue;
        out.push({
          methods: layer.methods.filter((m) => /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/.test(m)),
          path: layer.path,
          params: layer.paramNames.map((p) => p.name),
          authenticated,
        });
      }
    }
  };
  add(publicRouters(services), false);
  add(authenticatedRouters(services), true);
  return out;
}

const ROUTES_DIR = fileURLToPath(new URL("../../src/http/routes/", import.meta.url));

/**
 * Argument names the route handlers parse, read from their sources (`name: optional(…)`,
 * `name: str`, …), plus Zulip's common ones: so a new route's arguments are fuzzed without edits here.
 */
export function argumentNames(): string[] {
  const names = new Set([
    "type",
    "to",
    "topic",
    "subject",
    "content",
    "anchor",
    "num_before",
    "num_after",
    "narrow",
    "apply_markdown",
    "client_gravatar",
    "queue_id",
    "last_event_id",
    "event_types",
    "dont_block",
    "subscriptions",
    "principals",
    "stream_id",
    "stream",
    "emoji_name",
    "emoji_code",
    "reaction_type",
    "messages",
    "op",
    "flag",
    "full_name",
    "short_name",
    "bot_type",
    "payload_url",
    "interface_type",
    "service_name",
    "config_data",
    "email",
    "password",
    "username",
    "role",
    "user_id",
    "keys",
    "storage",
    "include_subscribers",
    "invite_only",
    "property",
    "value",
    "propagate_mode",
    "only_events",
    "exclude_events",
    "api_key",
    "data",
    "topic_name",
    "include_anchor",
    "message_id",
  ]);
  const files = fs.readdirSync(ROUTES_DIR, { recursive: true }) as string[];
  for (const file of files) {
    if (!file.endsWith(".ts")) continue;
    const text = fs.readFileSync(path.join(ROUTES_DIR, file), "utf8");
    for (const m of text.matchAll(
      /\b([a-z][a-z0-9_]*)\s*:\s*(?:optional|str|int|bool|json|list|nonNegative|positive|flag|enumOf|id)\b/g,
    )) {
      if (m[1] !== undefined) names.add(m[1]);
    }
  }
  return [...names].sort();
}

/** Strings that have broken servers: NUL, lone surrogates, RTL marks, numbers at the edges, JSON that is not. */
export const HOSTILE_CONSTANTS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\u202eevil\u202c",
  "\u200f\u200e",
  "\ufeff{}",
  "null",
  "true",
  "0",
  "-1",
  "1.5",
  "1e309",
  "-1e309",
  "NaN",
  "9007199254740993",
  "99999999999999999999999999",
  "-0",
  "[]",
  "{}",
  "[null]",
  "[1, null, {}]",
  '{"a":',
  '"',
  "\\",
  "%",
  "%00",
  "%E0%A4%A",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  '[["stream", "general"], ["search", "*"]]',
  '[{"operator": "stream", "operand": 1}]',
  '[{"name": "x\\u0000"}]',
  "[" + "[".repeat(2000) + "]".repeat(2000) + "]",
  "*".repeat(300),
  "é".repeat(5000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_CONSTANTS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 4 })
      .map((a) => JSON.stringify(a)),
  },
);

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as on the wire). */
export function pct(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A path and query as Node sends them: every byte outside visible ASCII percent-encoded. */
export function safeTarget(target: string): string {
  return target.replace(/[^\x21-\x7e]/gu, (c) => pct(c));
}

/**
 * A header value as raw bytes on the wire: UTF-8 read as Latin-1 (Node refuses other characters),
 * without the control characters no HTTP client can send.
 */
export function wireHeaderValue(v: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return Buffer.from(v.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ""), "utf8").toString("latin1");
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One request with full control of path, headers and body bytes; rejects after `timeoutMs`. */
export function rawRequest(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs = 10_000,
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: safeTarget(pathAndQuery),
        headers: {
          ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, wireHeaderValue(v)])),
          ...(body !== undefined ? { "content-length": String(body.length) } : {}),
        },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

export function isJsonBody(r: RawResponse): boolean {
  try {
    const parsed = JSON.parse(r.body) as unknown;
    return (
      typeof parsed === "object" && parsed !== null && (r.headers["content-type"] ?? "").includes("json")
    );
  } catch {
    return false;
  }
}

/** A digest of every row of each table (in a stable order): equal digests = no state change. */
export async function dbDigest(db: Db, skipTables: readonly string[] = []): Promise<Map<string, string>> {
  const tables =
    db.dialect === "sqlite"
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
      : await db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
        );
  const out = new Map<string, string>();
  if (db.dialect === "postgres") {
    // One round trip: PostgreSQL hashes each table's rows itself (a query per table, its rows sent
    // over, made the PostgreSQL pass's fuzz three times as long as SQLite's).
    const names = tables.map((t) => t.name).filter((n) => !skipTables.includes(n));
    if (names.length === 0) return out;
    const digests = await db.all<{ name: string; digest: string }>(
      names
        .map(
          (n) =>
            `SELECT '${n}' AS name, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS digest FROM "${n}" r`,
        )
        .join(" UNION ALL "),
    );
    for (const { name, digest } of digests) out.set(name, digest);
    return out;
  }
  for (const { name } of tables) {
    if (skipTables.includes(name)) continue;
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${name}`);
    const lines = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)))
      .sort();
    out.set(name, crypto.createHash("sha256").update(lines.join("\n")).digest("hex"));
  }
  return out;
}

/** The tables whose digests differ. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}

/** FUZZ_RUNS (or `--long` passed through LONG_FUZZ=1) scales the number of runs; the seed is FUZZ_SEED. */
export function fuzzScale(): { runs: number; seed: number; long: boolean } {
  const long = process.env["LONG_FUZZ"] === "1" || process.argv.includes("--long");
  const runs = Number(process.env["FUZZ_RUNS"] ?? (long ? "10" : "1"));
  const seed = Number(process.env["FUZZ_SEED"] ?? "20261124");
  return { runs: Number.isFinite(runs) && runs > 0 ? runs : 1, seed, long };
}
