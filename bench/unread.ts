/**
 * Unread and flags storage (issue 16), run by `npm run bench` (section "unread") or alone:
 *
 *   node bin/run-ts.js bench/unread.ts [--quick]
 *
 * - a reader subscribed to a stream of 50,000 messages (5,000 with --quick) in 100 topics, all of
 *   them unread, sent through the message service (the storage path real sends take);
 * - GET /messages of the newest 100 (narrow [] and narrow stream) and from `first_unread`, as the
 *   reader; p50 of sequential requests;
 * - POST /register with fetch_event_types ["message", "update_message_flags"] (max_message_id and
 *   `unread_msgs` with every one of the 50,000 ids), p50; the answer's count is checked;
 * - the same register for another user holding a fifth as many unread direct messages, all from
 *   one sender (a bot's notices, say): one `pms` entry with every id;
 * - POST /messages to a 10,000-subscriber stream (1,000 with --quick), p50 of sequential sends
 *   (no event queues: the storage cost; bench/ratio.ts measures the same send with live queues).
 *
 * The server runs in this process on a fresh SQLite store in a temporary folder (the client's
 * requests are sequential, so it never competes with the server for the event loop).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../src/config.js";
import { silentLogger } from "../src/lib/logger.js";
import { startServer } from "../src/server.js";
import type { RunningServer } from "../src/server.js";
import { generateApiKey } from "../src/domain/users/secrets.js";
import { placeholders } from "../src/store/db.js";
import { percentile, round } from "./lib/stats.js";

export interface UnreadBenchResult {
  unreadMessages: number;
  bigStreamSubscribers: number;
  seedSec: number;
  getNewest100P50Ms: number;
  getStreamNewest100P50Ms: number;
  getFirstUnread100P50Ms: number;
  registerUnreadP50Ms: number;
  registerUnreadBytes: number;
  unreadDirectMessages: number;
  registerUnreadDmP50Ms: number;
  send10kP50Ms: number;
  send10kMaxMs: number;
  userMessageRows: number;
}

async function bulkUsers(running: RunningServer, count: number): Promise<number[]> {
  const { users, clock } = running.services;
  const { db } = running;
  const realm = await users.realm();
  const now = clock.now();
  await db.transaction(async (tx) => {
    for (let start = 0; start < count; start += 500) {
      const n = Math.min(500, count - start);
      const values: (string | number)[] = [];
      for (let i = start; i < start + n; i++) {
        const email = `u${i}@unread.example`;
        values.push(realm.id, email, email, `Unread user ${i}`, `u${i}`, generateApiKey(), 400, now);
      }
      await tx.run(
        `INSERT INTO users (realm_id, email, email_lower, full_name, short_name, api_key, role, date_joined_ms)
         VALUES ${new Array<string>(n).fill(`(${placeholders(8)})`).join(", ")}`,
        values,
      );
    }
  });
  const rows = await db.all<{ id: number }>("SELECT id FROM users WHERE email LIKE ? ORDER BY id", [
    "u%@unread.example",
  ]);
  return rows.map((r) => Number(r.id));
}

/** Requests of each GET series not measured: the first ones of a fresh process run cold (JIT). */
const WARM_UP = 20;

function p50(samples: number[]): number {
  return round(
    percentile(
      [...samples].sort((a, b) => a - b),
      50,
    ),
  );
}

export async function unreadBench(
  quick: boolean,
  sizes: { unread?: number; subscribers?: number } = {},
): Promise<UnreadBenchResult> {
  const unreadCount = sizes.unread ?? (quick ? 5_000 : 50_000);
  const bigSubscribers = sizes.subscribers ?? (quick ? 1_000 : 10_000);
  const runs = quick ? 10 : 30;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "unread-bench-"));
  const config = defaultConfig({
    port: 0,
    dataDir,
    ownerEmail: "owner@unread.example",
    rateLimit: null,
    logLevel: "silent",
  });
  const running = await startServer(config, { logger: silentLogger, ownerPassword: "bench-password" });
  try {
    const { services } = running;
    const owner = running.firstStart!.owner;
    const seedStart = performance.now();
    const memberIds = await bulkUsers(running, bigSubscribers - 1);
    const readerId = memberIds[0]!;
    const reader = (await services.users.byId(readerId))!;
    const subscribe = (name: string, principals: number[]) =>
      services.streams.subscribe(owner, [{ name }], {
        inviteOnly: false,
        historyPublicToSubscribers: undefined,
        isAnnouncementOnly: false,
        announce: false,
        principals,
        authorizationErrorsFatal: true,
      });
    await subscribe("reading", [owner.id, readerId]);
    await subscribe("big", [owner.id, ...memberIds]);
    await services.eventQueues.idle();

    // The reader's unread messages: sent by the owner, 20 at a time (group commit as in production).
    let next = 0;
    const worker = async () => {
      while (next < unreadCount) {
        const i = next++;
        await services.messages.send(owner, {
          type: "stream",
          to: "reading",
          topic: `topic ${i % 100}`,
          content: `message ${i}`,
        });
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    // Another member's unread direct messages, all from the owner.
    const dmCount = Math.round(unreadCount / 5);
    const dmReader = (await services.users.byId(memberIds[1]!))!;
    let nextDm = 0;
    const dmWorker = async () => {
      while (nextDm < dmCount) {
        const i = nextDm++;
        await services.messages.send(owner, { type: "private", to: [dmReader.id], content: `notice ${i}` });
      }
    };
    await Promise.all(Array.from({ length: 20 }, dmWorker));
    await services.eventQueues.idle();
    const seedSec = round((performance.now() - seedStart) / 1000, 1);

    const auth = (u: { email: string; apiKey: string }) =>
      `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")}`;
    const readerAuth = auth(reader);
    const timed = async (
      method: string,
      p: string,
      body: URLSearchParams | undefined,
      who: string,
      check: (b: Record<string, unknown>) => void,
    ): Promise<{ ms: number; bytes: number }> => {
      const t0 = performance.now();
      const res = await fetch(`${running.url}${p}`, {
        method,
        headers: {
          authorization: who,
          ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
        },
        ...(body === undefined ? {} : { body: body.toString() }),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      const parsed = JSON.parse(text) as Record<string, unknown>;
      if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
      check(parsed);
      return { ms, bytes: text.length };
    };
    const getMessages = async (anchor: string, narrow: unknown[], before: number, after: number) => {
      const q = new URLSearchParams({
        anchor,
        num_before: String(before),
        num_after: String(after),
        narrow: JSON.stringify(narrow),
      });
      const samples: number[] = [];
      for (let i = 0; i < runs + WARM_UP; i++) {
        const r = await timed("GET", `/api/v1/messages?${q.toString()}`, undefined, readerAuth, (b) => {
          const n = (b["messages"] as unknown[]).length;
          if (n < 100) throw new Error(`GET /messages answered ${n} messages`);
        });
        if (i >= WARM_UP) samples.push(r.ms);
      }
      return p50(samples);
    };
    const getNewest100P50Ms = await getMessages("newest", [], 100, 0);
    const getStreamNewest100P50Ms = await getMessages("newest", [["stream", "reading"]], 100, 0);
    const getFirstUnread100P50Ms = await getMessages("first_unread", [], 0, 100);

    const registerSamples: number[] = [];
    let registerUnreadBytes = 0;
    const regBody = new URLSearchParams({
      fetch_event_types: JSON.stringify(["message", "update_message_flags"]),
      event_types: JSON.stringify(["message"]),
    });
    for (let i = 0; i < Math.ceil(runs / 2) + 2; i++) {
      const r = await timed("POST", "/api/v1/register", regBody, readerAuth, (b) => {
        const unread = b["unread_msgs"] as { count: number };
        if (unread.count !== unreadCount) throw new Error(`unread_msgs.count ${unread.count}`);
      });
      registerUnreadBytes = r.bytes;
      if (i >= 2) registerSamples.push(r.ms);
    }

    const dmSamples: number[] = [];
    for (let i = 0; i < Math.ceil(runs / 2) + 2; i++) {
      const r = await timed("POST", "/api/v1/register", regBody, auth(dmReader), (b) => {
        const unread = b["unread_msgs"] as { count: number; pms: { unread_message_ids: number[] }[] };
        const listed = unread.pms[0]?.unread_message_ids.length;
        if (unread.count !== dmCount || unread.pms.length !== 1 || listed !== dmCount) {
          throw new Error(`unread_msgs.count ${unread.count}, ${unread.pms.length} pms, ${listed} ids`);
        }
      });
      if (i >= 2) dmSamples.push(r.ms);
    }

    const ownerAuth = auth(owner);
    const sends: number[] = [];
    for (let i = 0; i < (quick ? 5 : 11) + 1; i++) {
      const body = new URLSearchParams({ type: "stream", to: "big", topic: "bench", content: `send ${i}` });
      const r = await timed("POST", "/api/v1/messages", body, ownerAuth, (b) => {
        if (typeof b["id"] !== "number") throw new Error("no id");
      });
      if (i > 0) sends.push(r.ms);
      await services.eventQueues.idle();
    }
    const rows = await running.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM user_messages");
    return {
      unreadMessages: unreadCount,
      bigStreamSubscribers: bigSubscribers,
      seedSec,
      getNewest100P50Ms,
      getStreamNewest100P50Ms,
      getFirstUnread100P50Ms,
      registerUnreadP50Ms: p50(registerSamples),
      registerUnreadBytes,
      unreadDirectMessages: dmCount,
      registerUnreadDmP50Ms: p50(dmSamples),
      send10kP50Ms: p50(sends),
      send10kMaxMs: round(Math.max(...sends)),
      userMessageRows: Number(rows?.n ?? 0),
    };
  } finally {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // Diagnostics: --unread N and --subscribers N change the sizes.
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : Number(process.argv[i + 1]);
  };
  const result = await unreadBench(process.argv.includes("--quick"), {
    unread: arg("--unread"),
    subscribers: arg("--subscribers"),
  });
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
