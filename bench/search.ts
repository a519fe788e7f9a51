/**
 * Search and upload measurements (issue 18), run by `npm run bench` (sections "search" and
 * "upload") or alone:
 *
 *   node bin/run-ts.js bench/search.ts [--quick]
 *
 * - search: GET /messages with the narrow [stream, search "needle"] (the newest 50 matches) over a
 *   stream of 100,000 messages (10,000 with --quick) in which 1% contain the word; median and p99
 *   of sequential requests, plus the same search without the stream (the user's own messages);
 * - upload: POST /user_uploads of a 10 MB file (multipart), median time and throughput, then the
 *   download of the same file.
 *
 * The server runs in this process on a fresh SQLite store in a temporary folder; messages are
 * written through the repositories in large transactions (the full-text index follows by trigger).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../src/config.js";
import { silentLogger } from "../src/lib/logger.js";
import { startServer } from "../src/server.js";
import { repoStore } from "../src/store/repos.js";
import { StreamsRepo } from "../src/store/streams-repo.js";
import { percentile, round } from "./lib/stats.js";

const WORDS = (
  "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa " +
  "quebec romeo sierra tango uniform victor whiskey xray yankee zulu deploy build release server " +
  "client message stream topic search index query commit branch merge review test green red yellow"
).split(" ");

function sentence(rng: () => number, needle: boolean): string {
  const words = Array.from({ length: 12 }, () => WORDS[Math.floor(rng() * WORDS.length)]!);
  if (needle) words[Math.floor(rng() * words.length)] = "needle";
  return words.join(" ");
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function stats(samples: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: round(percentile(sorted, 50), 2), p99Ms: round(percentile(sorted, 99), 2) };
}

export interface SearchBenchResult {
  [metric: string]: unknown;
  messages: number;
  matches: number;
  p50Ms: number;
  p99Ms: number;
  withoutStreamP50Ms: number;
  requests: number;
  seedSec: number;
}

export interface UploadBenchResult {
  [metric: string]: unknown;
  bytes: number;
  uploadP50Ms: number;
  uploadMBPerSec: number;
  downloadP50Ms: number;
  runs: number;
}

export async function searchAndUploadBench(
  quick: boolean,
): Promise<{ search: SearchBenchResult; upload: UploadBenchResult }> {
  const messageCount = quick ? 10_000 : 100_000;
  const requests = quick ? 50 : 300;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "search-bench-"));
  const config = defaultConfig({
    port: 0,
    dataDir,
    ownerEmail: "owner@bench.example",
    rateLimit: null,
    logLevel: "silent",
  });
  const running = await startServer(config, { logger: silentLogger, ownerPassword: "bench-password" });
  try {
    const { users } = running.services;
    const { db } = running;
    const owner = running.firstStart!.owner;
    const auth = `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString("base64")}`;

    // Seed: one stream, the owner subscribed, `messageCount` messages, 1% with "needle".
    const seedStart = performance.now();
    const realm = await users.realm();
    const stream = await new StreamsRepo(db).insert({
      realmId: realm.id,
      name: "bench",
      description: "",
      renderedDescription: "",
      inviteOnly: false,
      historyPublicToSubscribers: true,
      isAnnouncementOnly: false,
      isDefault: false,
      dateCreated: 0,
      creatorId: null,
    });
    if (stream === undefined) throw new Error("stream bench exists already");
    await new StreamsRepo(db).activate(owner.id, stream.id, "#76ce90", 0);
    const store = repoStore(db);
    const rng = seeded(18);
    let matches = 0;
    const batch = 5_000;
    for (let start = 0; start < messageCount; start += batch) {
      await store.transaction(async ({ messages, recipientRows }) => {
        const recipientId = await messages.recipientId(2, String(stream.id));
        for (let i = start; i < Math.min(start + batch, messageCount); i++) {
          const needle = i % 100 === 7;
          if (needle) matches++;
          const content = sentence(rng, needle);
          const id = await messages.insertMessage({
            senderId: owner.id,
            recipientId,
            streamId: stream.id,
            topic: `topic ${i % 50}`,
            pmKey: null,
            content,
            renderedContent: `<p>${content}</p>`,
            client: "bench",
            dateSent: i,
            isMeMessage: false,
            has: { link: false, image: false, attachment: false },
          });
          await recipientRows.insertUserMessages(id, [{ id: owner.id, flags: 1 }]);
        }
      });
    }
    const seedSec = round((performance.now() - seedStart) / 1000, 1);

    const search = async (narrow: unknown[]): Promise<number> => {
      const params = new URLSearchParams({
        anchor: "newest",
        num_before: "50",
        num_after: "0",
        narrow: JSON.stringify(narrow),
      });
      const t0 = performance.now();
      const res = await fetch(`${running.url}/api/v1/messages?${params}`, {
        headers: { authorization: auth },
      });
      const body = (await res.json()) as { messages?: unknown[] };
      const ms = performance.now() - t0;
      if (res.status !== 200 || body.messages?.length !== 50) throw new Error(`search failed: ${res.status}`);
      return ms;
    };
    const inStream = [
      ["stream", "bench"],
      ["search", "needle"],
    ];
    for (let i = 0; i < 5; i++) await search(inStream);
    const samples: number[] = [];
    for (let i = 0; i < requests; i++) samples.push(await search(inStream));
    const mine: number[] = [];
    for (let i = 0; i < Math.ceil(requests / 3); i++) mine.push(await search([["search", "needle"]]));

    // Upload: 10 MB of random bytes (nothing to compress), then its download.
    const bytes = crypto.randomBytes(10 * 1024 * 1024);
    const runs = quick ? 3 : 7;
    const uploads: number[] = [];
    const downloads: number[] = [];
    for (let i = 0; i < runs; i++) {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)]), `bench-${i}.bin`);
      const t0 = performance.now();
      const res = await fetch(`${running.url}/api/v1/user_uploads`, {
        method: "POST",
        headers: { authorization: auth },
        body: form,
      });
      const body = (await res.json()) as { url?: string };
      uploads.push(performance.now() - t0);
      if (res.status !== 200 || body.url === undefined) throw new Error(`upload failed: ${res.status}`);
      const t1 = performance.now();
      const file = await fetch(`${running.url}${body.url}`, { headers: { authorization: auth } });
      const got = Buffer.from(await file.arrayBuffer());
      downloads.push(performance.now() - t1);
      if (!got.equals(bytes)) throw new Error("download differs from the upload");
    }
    const up = stats(uploads);
    return {
      search: {
        messages: messageCount,
        matches,
        ...stats(samples),
        withoutStreamP50Ms: stats(mine).p50Ms,
        requests,
        seedSec,
      },
      upload: {
        bytes: bytes.length,
        uploadP50Ms: up.p50Ms,
        uploadMBPerSec: round(bytes.length / 1024 / 1024 / (up.p50Ms / 1000), 1),
        downloadP50Ms: stats(downloads).p50Ms,
        runs,
      },
    };
  } finally {
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await searchAndUploadBench(process.argv.includes("--quick"));
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
