/**
 * The fuzz suite (issue 11): hostile requests against every route of the app's routers and every
 * registered integration's recorded cases, truncated and with fields of the wrong type.
 * Properties, for every request: never a 5xx, always a JSON body (HEAD aside), no change to the
 * database when the request is rejected (4xx), an answer at all (none within 10 s is a hang). How
 * many answers took longer than DEADLINE_MS is printed with the figures, not a failure: a busy
 * machine must not turn this suite red (issue 27); timing belongs in `npm run bench`.
 *
 * Seeded and bounded: FUZZ_SEED (default 20261124) fixes the inputs; FUZZ_RUNS=N (or LONG_FUZZ=1)
 * multiplies their number for local runs. Findings are listed with the input that caused them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { integrations } from "../../integrations/index.js";
import { caseBody, loadCases } from "../../integrations/kit/index.js";
import type { WebhookCase } from "../../integrations/kit/index.js";
import { defaultConfig } from "../../src/config.js";
import { UsersRepo } from "../../src/store/users-repo.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import {
  appRoutes,
  argumentNames,
  changedTables,
  dbDigest,
  fuzzScale,
  hostileString,
  isJsonBody,
  pct,
  rawRequest,
} from "./fuzz-lib.js";
import type { RawResponse, Route } from "./fuzz-lib.js";

const BODY_LIMIT = 64 * 1024;
const DEADLINE_MS = 1000;
const { runs, seed } = fuzzScale();

let server: TestServer;
const stats = {
  requests: 0,
  ownerNotices: 0,
  fiveXX: 0,
  nonJson: 0,
  slow: 0,
  hangs: 0,
  stateChanges: 0,
  maxMs: 0,
};
const findings: string[] = [];

/** A fresh server (the integration fuzz restarts it now and then to keep the tables small). */
async function freshServer(): Promise<void> {
  snapshot = undefined;
  server = await startTestServer({
    config: {
      bodyLimitBytes: BODY_LIMIT,
      events: { ...defaultConfig().events, heartbeatSeconds: 0.2 },
      // The fuzzer is one IP sending one request at a time: the cap does not matter here.
      limits: { ...defaultConfig().limits, maxPublicRequestsPerIp: 0 },
    },
  });
  // Streams the fuzzer's plausible arguments name; the webhook bot may post to them.
  await server.api.post("/api/v1/users/me/subscriptions", {
    as: server.users.iago,
    params: {
      subscriptions: [{ name: "general" }, { name: "Denmark" }, { name: "secret", invite_only: true }],
      principals: [server.users.iago.email, server.users.hamlet.email, server.users.webhookBot.email],
    },
  });
}

beforeAll(freshServer, 60_000);

afterAll(async () => {
  await server.close();
  const figures = { seed, runs, ...stats, findings: findings.length };
  fs.writeFileSync(path.join(os.tmpdir(), "chat-reliability-fuzz.json"), JSON.stringify(figures, null, 2));
  process.stdout.write(`fuzz figures: ${JSON.stringify(figures)}\n`);
});

/**
 * The one documented state change of a rejected webhook: as in Zulip, the Notification Bot tells a
 * webhook bot's owner privately (at most once a minute) about a payload that is not JSON, a missing
 * event header or an unsupported event, and the request is still answered with the error.
 */
async function onlyOwnerNotices(changed: string[], lastMessageId: number): Promise<boolean> {
  const messageTables = (t: string): boolean =>
    ["messages", "recipients", "user_messages", "huddles"].includes(t) || t.startsWith("messages_fts");
  if (!changed.every(messageTables)) return false;
  const db = server.running.db;
  const notifier = await server.running.services.users.notificationBot();
  const added = await db.all<{ sender_id: number }>("SELECT sender_id FROM messages WHERE id > ?", [
    lastMessageId,
  ]);
  return added.length > 0 && added.every((m) => m.sender_id === notifier.id);
}

/**
 * Logs that record every request by design, accepted or not, and are written by background work
 * too: the webhook delivery log (migration 020, docs/integration-operations.md).
 */
/**
 * Written after the request, whatever its answer: the delivery log, and SQLite's full-text index,
 * which catches up in the background with messages sent earlier (migration 026).
 */
const LOG_TABLES = [
  "webhook_deliveries",
  ...["", "_data", "_idx", "_docsize", "_config", "_state"].map((s) => `messages_fts${s}`),
];

let snapshot: { changes: string; digest: Map<string, string> } | undefined;

/**
 * Changes only when something may have been written: SQLite's total_changes() (this connection's
 * count of written rows); on PostgreSQL (TEST_STACK=postgres-redis) the WAL insert position, which
 * any write on the server moves (other tests' too: that only costs extra digests).
 */
async function totalChanges(): Promise<string> {
  const db = server.running.db;
  if (db.dialect === "postgres") {
    const row = await db.get<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn");
    return row?.lsn ?? "";
  }
  const row = await db.get<{ n: number }>("SELECT total_changes() AS n");
  return String(row?.n ?? -1);
}

type Who = "hamlet" | "iago" | "polonius" | "webhookBot" | "none" | "badkey";

/** The user's current key (a fuzzed request may have regenerated it); reactivates a deactivated user. */
async function authHeader(who: Who): Promise<Record<string, string>> {
  if (who === "none") return {};
  const email = who === "badkey" ? server.users.hamlet.email : server.users[who].email;
  let key = "Q".repeat(32);
  if (who !== "badkey") {
    const repo = new UsersRepo(server.running.db);
    const user = await repo.byEmail(email);
    if (user !== undefined && !user.isActive) await repo.setActive(user.id, true);
    key = user?.apiKey ?? key;
  }
  return { authorization: "Basic " + Buffer.from(`${email}:${key}`).toString("base64") };
}

/** Sends one request and checks every property; a violation becomes a finding naming the input. */
async function probe(
  label: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<RawResponse | undefined> {
  const db = server.running.db;
  // A digest of the whole database only when something was written since the last one.
  const changesBefore = await totalChanges();
  if (snapshot === undefined || snapshot.changes !== changesBefore) {
    snapshot = { changes: changesBefore, digest: await dbDigest(db, LOG_TABLES) };
  }
  const before = snapshot.digest;
  const lastMessage = (await db.get<{ id: number | null }>("SELECT max(id) AS id FROM messages"))?.id ?? 0;
  let res: RawResponse;
  try {
    res = await rawRequest(server.url, method, target, headers, body, 10_000);
  } catch (err) {
    stats.hangs++;
    findings.push(`${label}: no answer (${(err as Error).message}) — ${method} ${target.slice(0, 200)}`);
    return undefined;
  }
  stats.requests++;
  stats.maxMs = Math.max(stats.maxMs, Math.round(res.ms));
  const where = `${method} ${target.slice(0, 160)} ${JSON.stringify(headers).slice(0, 160)} body=${JSON.stringify((body ?? Buffer.alloc(0)).toString("utf8").slice(0, 160))}`;
  if (res.status >= 500) {
    stats.fiveXX++;
    findings.push(`${label}: ${res.status} ${res.body.slice(0, 120)} — ${where}`);
  }
  if (method !== "HEAD" && !isJsonBody(res)) {
    stats.nonJson++;
    findings.push(`${label}: not JSON (${res.status}, ${String(res.headers["content-type"])}) — ${where}`);
  }
  if (res.ms > DEADLINE_MS) stats.slow++;
  if (res.status >= 400 && (await totalChanges()) !== changesBefore) {
    const changed = changedTables(before, await dbDigest(db, LOG_TABLES));
    if (changed.length > 0 && (await onlyOwnerNotices(changed, lastMessage))) {
      stats.ownerNotices++;
    } else if (changed.length > 0) {
      stats.stateChanges++;
      findings.push(
        `${label}: rejected (${res.status} ${res.body.slice(0, 100)}) but tables changed: ${changed.join(", ")} — ${where}`,
      );
    }
  }
  return res;
}

// --- every route ---------------------------------------------------------------------------

const plausible = fc.constantFrom(
  "general",
  "Denmark",
  "secret",
  "1",
  "2",
  "3",
  "hello",
  "stream",
  "private",
  "newest",
  '["general"]',
  '[{"name": "general"}]',
  '["hamlet@zulip.com"]',
  "[3]",
  "iago@zulip.com",
  "true",
);
const value = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: plausible });

const ENCODINGS = [
  "query",
  "form",
  "form",
  "multipart",
  "multipart-broken",
  "json",
  "json-typed",
  "not-json",
  "text",
  "no-content-type",
  "at-limit",
  "over-limit",
] as const;
type Encoding = (typeof ENCODINGS)[number];

interface RouteProbe {
  route: number;
  method: string | null;
  pathValues: string[];
  args: [string, string][];
  duplicate: boolean;
  encoding: Encoding;
  who: Who;
  realWebhookKey: boolean;
}

function routeProbes(routes: Route[], names: string[], n: number): RouteProbe[] {
  const argName = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 40) },
  );
  const arb: fc.Arbitrary<RouteProbe> = fc.record({
    route: fc.nat(routes.length - 1),
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD") },
    ),
    pathValues: fc.array(
      fc.oneof(
        fc.constantFrom("1", "2", "3", "8", "999999", "0", "-1"),
        hostileString.filter((s) => s.length < 200),
      ),
      { minLength: 3, maxLength: 3 },
    ),
    args: fc.array(fc.tuple(argName, value), { maxLength: 6 }),
    duplicate: fc.boolean(),
    encoding: fc.constantFrom(...ENCODINGS),
    who: fc.constantFrom<Who>("hamlet", "hamlet", "iago", "polonius", "webhookBot", "none", "badkey"),
    realWebhookKey: fc.boolean(),
  });
  return fc.sample(arb, { seed, numRuns: n });
}

function multipart(args: [string, string][], boundary: string): string {
  return (
    args
      .map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "")}"\r\n\r\n${v}\r\n`,
      )
      .join("") + `--${boundary}--\r\n`
  );
}

function encode(
  p: RouteProbe,
  args: [string, string][],
): { query: string; headers: Record<string, string>; body?: Buffer } {
  const list = p.duplicate && args.length > 0 ? [...args, args[0]!] : args;
  const qs = list.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&");
  switch (p.encoding) {
    case "query":
      return { query: qs, headers: {} };
    case "form":
      return {
        query: "",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: Buffer.from(qs),
      };
    case "multipart":
      return {
        query: "",
        headers: { "content-type": "multipart/form-data; boundary=fuzzb" },
        body: Buffer.from(multipart(list, "fuzzb")),
      };
    case "multipart-broken": {
      const whole = multipart(list, "fuzzb");
      return {
        query: "",
        headers: { "content-type": "multipart/form-data; boundary=fuzzb" },
        body: Buffer.from(whole.slice(0, Math.max(1, Math.floor(whole.length / 2)))),
      };
    }
    case "json":
      return {
        query: "",
        headers: { "content-type": "application/json" },
        body: Buffer.from(JSON.stringify(Object.fromEntries(list))),
      };
    case "json-typed": {
      const typed = Object.fromEntries(
        list.map(([k, v]) => {
          try {
            return [k, JSON.parse(v) as unknown];
          } catch {
            return [k, v];
          }
        }),
      );
      return {
        query: "",
        headers: { "content-type": "application/json" },
        body: Buffer.from(JSON.stringify(typed)),
      };
    }
    case "not-json":
      return { query: "", headers: { "content-type": "application/json" }, body: Buffer.from(`{${qs}`) };
    case "text":
      return { query: qs, headers: { "content-type": "text/plain; charset=utf-16" }, body: Buffer.from(qs) };
    case "no-content-type":
      return { query: "", headers: {}, body: Buffer.from(qs) };
    case "at-limit":
    case "over-limit": {
      const size = BODY_LIMIT + (p.encoding === "over-limit" ? 1 : 0);
      const head = Buffer.from(`${qs}${qs === "" ? "" : "&"}content=`);
      return {
        query: "",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), "a")]),
      };
    }
  }
}

describe("fuzz: every route of the app", () => {
  it(
    "never answers 5xx, non-JSON, or with a changed database after a rejection, and never hangs",
    async () => {
      const routes = appRoutes(server.running.services).filter((r) => r.methods.length > 0);
      expect(routes.length).toBeGreaterThan(40);
      const names = argumentNames();
      const integrationNames = integrations.map((i) => i.name);
      const probes = routeProbes(routes, names, 2000 * runs);
      for (const [i, p] of probes.entries()) {
        const route = routes[p.route]!;
        const method = p.method ?? route.methods[i % route.methods.length] ?? "GET";
        let params = 0;
        const pathname = route.path.replace(/[:*]([A-Za-z_]+)/g, (_m, name: string) => {
          const v = p.pathValues[params++ % 3] ?? "1";
          if ((name === "integration" || name === "name") && i % 3 !== 0)
            return integrationNames[i % integrationNames.length] ?? v;
          return pct(v);
        });
        const args: [string, string][] = [...p.args];
        if (pathname.startsWith("/api/v1/external/") && p.realWebhookKey) {
          args.push([
            "api_key",
            (await new UsersRepo(server.running.db).byId(server.users.webhookBot.id))?.apiKey ?? "",
          ]);
        }
        const { query, headers, body } = encode(p, args);
        const target = query === "" ? pathname : `${pathname}?${query}`;
        await probe(
          `route ${route.path}`,
          method,
          target,
          { ...headers, ...(await authHeader(p.who)) },
          body,
        );
      }
      expect(findings.filter((f) => f.startsWith("route "))).toEqual([]);
    },
    900_000 * runs, // a safety net for a loaded machine (PostgreSQL: minutes), not a time target
  );
});

// --- every integration ------------------------------------------------------------------------

const INTEGRATIONS_DIR = fileURLToPath(new URL("../../integrations/", import.meta.url));

function casesOf(name: string): WebhookCase[] {
  const out: WebhookCase[] = [];
  for (const folder of new Set([name, name.replace(/sponsors$/, "")])) {
    for (const c of loadCases(path.join(INTEGRATIONS_DIR, folder, "fixtures", "cases"))) {
      if (c.url_path === `/api/v1/external/${name}`) out.push(c);
    }
  }
  return out;
}

/** Every path to a node of a JSON value (objects and arrays included), depth-first. */
function nodePaths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push([...prefix, i], ...nodePaths(x, [...prefix, i])));
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) out.push([...prefix, k], ...nodePaths(x, [...prefix, k]));
  }
  return out;
}

function replaceAt(v: unknown, at: (string | number)[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaceAt(x, rest, replacement) : x));
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === head ? replaceAt(x, rest, replacement) : x]),
    );
  }
  return v;
}

const WRONG_TYPED: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  "",
  "x",
  [],
  {},
  [1, null, {}],
  { a: {} },
  "\u0000\ud800",
  "9".repeat(400),
];

interface Mutation {
  kind: "truncate" | "retype" | "header";
  fraction: number;
  pick: number;
  replacement: number;
  header: string;
}

describe("fuzz: every registered integration's cases, truncated and with wrong-typed fields", () => {
  it(
    "never answers 5xx, non-JSON, or with a changed database after a rejection, and never hangs",
    async () => {
      const mutations = fc.sample(
        fc.record<Mutation>({
          kind: fc.constantFrom("truncate", "retype", "retype", "header"),
          fraction: fc.double({ min: 0, max: 1, noNaN: true }),
          pick: fc.nat(),
          replacement: fc.nat(WRONG_TYPED.length - 1),
          header: hostileString.filter((s) => !/[\r\n]/.test(s) && s.length < 100),
        }),
        { seed, numRuns: 997 },
      );
      let m = 0;
      const perCase = 3 * runs;
      const casesPerIntegration = 2 * runs;
      for (const integration of integrations) {
        const cases = casesOf(integration.name);
        for (const c of cases.slice(0, casesPerIntegration)) {
          for (let k = 0; k < perCase; k++) {
            const mu = mutations[m++ % mutations.length]!;
            const headers: Record<string, string> = { ...c.headers };
            if (c.content_type !== null) headers["content-type"] = c.content_type;
            let body = caseBody(c);
            let what: string = mu.kind;
            if (mu.kind === "truncate") {
              body = body.subarray(0, Math.floor(body.length * mu.fraction));
              what = `truncated to ${body.length} bytes`;
            } else if (mu.kind === "retype" && c.fixture !== null && typeof c.fixture === "object") {
              const paths = nodePaths(c.fixture);
              const at = paths[mu.pick % Math.max(1, paths.length)] ?? [];
              const replacement = WRONG_TYPED[mu.replacement];
              const mutated = replaceAt(c.fixture, at, replacement);
              body =
                c.body_encoding === "form-urlencoded"
                  ? Buffer.from(
                      new URLSearchParams(
                        Object.entries(mutated as Record<string, unknown>).map(([key, v]) => [
                          key,
                          typeof v === "string" ? v : (JSON.stringify(v) ?? ""),
                        ]),
                      ).toString(),
                    )
                  : Buffer.from(JSON.stringify(mutated));
              what = `${at.join(".")} = ${JSON.stringify(replacement)}`;
            } else if (mu.kind === "header") {
              const name = Object.keys(c.headers)[0] ?? "X-Event-Key";
              headers[name] = mu.header;
              what = `header ${name}: ${JSON.stringify(mu.header)}`;
            }
            const key =
              (await new UsersRepo(server.running.db).byId(server.users.webhookBot.id))?.apiKey ?? "";
            const url = c.url.replace("{api_key}", key).replace(/([?&])stream=[^&]*/, "$1stream=general");
            if (c.auth === "http_basic") {
              headers["authorization"] =
                "Basic " + Buffer.from(`${server.users.webhookBot.email}:${key}`).toString("base64");
            }
            await probe(
              `integration ${integration.name} (${c.case_id}, ${what})`,
              "POST",
              url,
              headers,
              body,
            );
          }
        }
      }
      expect(findings.filter((f) => f.startsWith("integration "))).toEqual([]);
    },
    900_000 * runs, // a safety net for a loaded machine (PostgreSQL: minutes), not a time target
  );
});
