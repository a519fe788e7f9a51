/**
 * `npm run bench [-- --quick] [-- --out FILE] [-- --only a,b] [-- --cpu-prof DIR]`
 *
 * Measures the chat server on loopback and prints a table; writes bench/results.json (or --out).
 * Every server under test runs in its own child process (bench/child.ts, driven over IPC); this
 * process is only the load generator (autocannon, the long-pollers, the senders), so client and
 * server never share an event loop. See docs/performance.md for what each figure means.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { Result } from "autocannon";
import { loadFixtureRequest } from "../src/tools/send-webhook-fixture.js";
import { BotType } from "../src/domain/users/types.js";
import type { Account } from "./lib/http.js";
import { Client, assertLoopback, basicAuth, mapLimit, waitFor } from "./lib/http.js";
import { spawnChild } from "./lib/rpc.js";
import type { ChildHandle } from "./lib/rpc.js";
import { now, round, summarizeNs } from "./lib/stats.js";
import { webBench } from "./web.js";
import { botsBench } from "./bots.js";
import { deliveriesBench } from "./deliveries.js";
import { scaleBench } from "./scale.js";
import { ratioBench, ratioRows } from "./ratio.js";
import { searchAndUploadBench } from "./search.js";
import { unreadBench } from "./unread.js";
import { startupBench } from "./startup.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

// ------------------------------------------------------------------ options

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}
const QUICK = process.argv.includes("--quick");
const OUT = path.resolve(argValue("--out") ?? path.join(ROOT, "bench/results.json"));
const ONLY = argValue("--only")?.split(",");
const CPU_PROF_DIR = argValue("--cpu-prof");

const P = QUICK
  ? {
      durationSec: 2,
      warmupSec: 1,
      connections: 50,
      pollers: 50,
      pollMessages: 3,
      fanoutSubscribers: 500,
      fanoutRuns: 2,
      idleQueues: 5_000,
      idleUsers: 100,
      botSamples: 5,
      webhookSubscribers: 100,
    }
  : {
      durationSec: 10,
      warmupSec: 2,
      connections: 50,
      pollers: 1_000,
      pollMessages: 30,
      fanoutSubscribers: 10_000,
      fanoutRuns: 7,
      idleQueues: 100_000,
      idleUsers: 1_000,
      botSamples: 200,
      webhookSubscribers: 100,
    };

/** Other work on the machine skews every figure: the 1/5/15-minute load averages are recorded. */
const LOAD_AT_START = os.loadavg().map((n) => round(n, 2));

// Diagnostics: `--webhook-subscribers N` varies the webhook stream's size (default 100).
const WEBHOOK_SUBS = argValue("--webhook-subscribers");
if (WEBHOOK_SUBS !== undefined) P.webhookSubscribers = Number(WEBHOOK_SUBS);

const wanted = (section: string): boolean => ONLY === undefined || ONLY.includes(section);

// ------------------------------------------------------------------ results

type Metric = number | null;
interface Section {
  [metric: string]: unknown;
  /** metric → why it could not be measured (the metric is then null). */
  na?: Record<string, string>;
}
const sections: Record<string, Section> = {};

function fail(metrics: string[], reason: string): Section {
  const s: Section = { na: {} };
  for (const m of metrics) {
    s[m] = null;
    s.na![m] = reason;
  }
  return s;
}

// ------------------------------------------------------------------ load generation

interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function load(opts: {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<LoadResult> {
  assertLoopback(opts.url);
  const base = { ...opts, connections: P.connections, timeout: 30 };
  await autocannon({ ...base, duration: P.warmupSec });
  const r: Result = await autocannon({ ...base, duration: P.durationSec });
  return {
    requestsPerSec: round(r.requests.total / P.durationSec, 1),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

// ------------------------------------------------------------------ sections

async function ceiling(): Promise<Section> {
  const child = await spawnChild("ceiling");
  try {
    const { url } = child.ready as { url: string };
    return {
      ...(await load({
        url: `${url}/api/v1/echo`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "stream", to: "general", topic: "bench", content: "hello" }),
      })),
    };
  } finally {
    await child.stop();
  }
}

interface Chat {
  child: ChildHandle;
  url: string;
  owner: Account;
  client: Client;
  users: Account[];
}

async function registerHttp(client: Client, account: Account, eventTypes: string[]) {
  const body = await client.ok("POST", "/api/v1/register", {
    auth: account,
    form: { event_types: JSON.stringify(eventTypes), apply_markdown: "false" },
  });
  return { queueId: body["queue_id"] as string, lastEventId: body["last_event_id"] as number };
}

async function webhook(chat: Chat): Promise<Section> {
  const subs = chat.users.slice(0, P.webhookSubscribers);
  await chat.child.call("createStream", { name: "github", userIds: subs.map((u) => u.id) });
  // Each subscriber holds a queue registered over HTTP, like a connected client.
  await mapLimit(subs, 20, (u) => registerHttp(chat.client, u, ["message"]));
  const bot = await chat.child.call<Account>("createBot", {
    shortName: "github",
    fullName: "GitHub",
    botType: BotType.INCOMING_WEBHOOK,
  });
  const fixture = loadFixtureRequest("github", "test_push_multiple_committers");
  const query = new URLSearchParams({ ...fixture.query, api_key: bot.apiKey, stream: "github" });
  const url = `${chat.url}/api/v1/external/github?${query.toString()}`;
  // One request by hand: the fixture must be accepted before it is worth loading.
  const probe = await fetch(url, {
    method: "POST",
    headers: fixture.headers,
    body: new Uint8Array(fixture.body),
  });
  if (probe.status !== 200) throw new Error(`webhook probe: ${probe.status} ${await probe.text()}`);
  const r = await load({ url, method: "POST", headers: fixture.headers, body: fixture.body });
  await chat.child.call("idle");
  const stats = await chat.child.call<{ queues: number }>("stats");
  const deleted = await chat.child.call<number>("deleteQueues", { userIds: subs.map((u) => u.id) });
  return {
    ...r,
    fixture: "integrations/github/fixtures/cases/test_push_multiple_committers.json",
    subscribers: subs.length + 1,
    subscriberQueues: deleted,
    queuesAliveAfter: stats.queues,
  };
}

async function sendToEvent(chat: Chat): Promise<Section> {
  const pollers = chat.users.slice(0, P.pollers);
  await chat.child.call("createStream", { name: "poll", userIds: pollers.map((u) => u.id) });
  const queues = await mapLimit(pollers, 50, (u) => registerHttp(chat.client, u, ["message"]));
  const pollClient = new Client(chat.url, P.pollers + 16);
  const sentAt = new Map<string, bigint>();
  const received = new Map<string, number>();
  const samples: bigint[] = [];
  const sendNs: bigint[] = [];
  let allReceived: (() => void) | undefined;
  let stopped = false;
  let pollErrors = 0;

  const poll = async (account: Account, q: { queueId: string; lastEventId: number }): Promise<void> => {
    let last = q.lastEventId;
    while (!stopped) {
      let res;
      try {
        res = await pollClient.request(
          "GET",
          `/api/v1/events?queue_id=${encodeURIComponent(q.queueId)}&last_event_id=${last}`,
          { auth: account },
        );
      } catch {
        if (!stopped) pollErrors++;
        return;
      }
      const t = now();
      if (res.status !== 200) {
        pollErrors++;
        return;
      }
      for (const e of res.body["events"] as { id: number; type: string; message?: { content: string } }[]) {
        last = Math.max(last, e.id);
        if (e.type !== "message" || e.message === undefined) continue;
        const t0 = sentAt.get(e.message.content);
        if (t0 === undefined) continue;
        samples.push(t - t0);
        const n = (received.get(e.message.content) ?? 0) + 1;
        received.set(e.message.content, n);
        if (n === pollers.length) allReceived?.();
      }
    }
  };
  const loops = pollers.map((u, i) => poll(u, queues[i]!));
  const attached = async (): Promise<boolean> =>
    (await chat.child.call<{ waiters: number }>("stats")).waiters >= pollers.length;
  let incomplete = 0;
  try {
    if (!(await waitFor(attached, 30_000))) throw new Error("the pollers never all attached");
    for (let k = 0; k < P.pollMessages; k++) {
      // Steady state: every poller is blocked in GET /events before the send.
      if (!(await waitFor(attached, 10_000, 1))) throw new Error("pollers did not re-attach");
      const content = `bench poll ${k}`;
      const done = new Promise<void>((resolve) => (allReceived = resolve));
      const t0 = now();
      sentAt.set(content, t0);
      await chat.client.ok("POST", "/api/v1/messages", {
        auth: chat.owner,
        form: { type: "stream", to: "poll", topic: "bench", content },
      });
      sendNs.push(now() - t0);
      const timedOut = await Promise.race([
        done.then(() => false),
        new Promise((r) => setTimeout(r, 15_000, true)),
      ]);
      if (timedOut === true) incomplete++;
    }
  } finally {
    stopped = true;
    pollClient.close();
    await Promise.all(loops);
    await chat.child.call("deleteQueues", { userIds: pollers.map((u) => u.id) });
  }
  const s = summarizeNs(samples);
  const send = summarizeNs(sendNs);
  return {
    pollers: pollers.length,
    messages: P.pollMessages,
    samples: s.count,
    expectedSamples: P.pollMessages * pollers.length,
    incompleteMessages: incomplete,
    pollErrors,
    p50Ms: s.p50Ms,
    p99Ms: s.p99Ms,
    maxMs: s.maxMs,
    sendP50Ms: send.p50Ms,
    sendP99Ms: send.p99Ms,
  };
}

async function fanout(chat: Chat): Promise<Section> {
  const subs = chat.users.slice(0, P.fanoutSubscribers);
  const ids = subs.map((u) => u.id);
  await chat.child.call("createStream", { name: "fanout", userIds: ids }, 300_000);
  await chat.child.call("allocateQueues", { userIds: ids, eventTypes: ["message"] }, 300_000);
  const fanoutNs: bigint[] = [];
  const sendNs: bigint[] = [];
  let targets = 0;
  let verifiedMin = Number.POSITIVE_INFINITY;
  for (let r = 0; r < P.fanoutRuns; r++) {
    targets = await chat.child.call<number>("armFanout", { userIds: ids });
    const t0 = now();
    const body = await chat.client.ok("POST", "/api/v1/messages", {
      auth: chat.owner,
      form: { type: "stream", to: "fanout", topic: "bench", content: `fan-out ${r}` },
    });
    sendNs.push(now() - t0);
    const res = await chat.child.call<{
      doneNs?: string;
      reached: number;
      targets: number;
      verified: number;
    }>("awaitFanout", { timeoutMs: 30_000, messageId: body["id"] as number });
    if (res.doneNs === undefined)
      throw new Error(`fan-out reached ${res.reached}/${res.targets} queues in 30 s`);
    fanoutNs.push(BigInt(res.doneNs) - t0);
    verifiedMin = Math.min(verifiedMin, res.verified);
  }
  await chat.child.call("deleteQueues", { userIds: ids }, 300_000);
  const f = summarizeNs(fanoutNs);
  const s = summarizeNs(sendNs);
  return {
    subscribers: subs.length + 1,
    queues: targets,
    runs: P.fanoutRuns,
    queuesVerifiedMin: verifiedMin,
    p50Ms: f.p50Ms,
    maxMs: f.maxMs,
    sendP50Ms: s.p50Ms,
    sendMaxMs: s.maxMs,
  };
}

async function messages(chat: Chat): Promise<{ post: Section; get: Section }> {
  const subs = chat.users.slice(0, 100);
  await chat.child.call("createStream", { name: "load", userIds: subs.map((u) => u.id) });
  const auth = basicAuth(chat.owner);
  const post = await load({
    url: `${chat.url}/api/v1/messages`,
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      type: "stream",
      to: "load",
      topic: "bench",
      content: "hello **world**",
    }).toString(),
  });
  const get = await load({
    url: `${chat.url}/api/v1/messages?anchor=newest&num_before=100&num_after=0`,
    method: "GET",
    headers: { authorization: auth },
  });
  const sample = await chat.client.ok("GET", "/api/v1/messages?anchor=newest&num_before=100&num_after=0", {
    auth: chat.owner,
  });
  return {
    post: { ...post, subscribers: subs.length + 1 },
    get: { ...get, messagesPerResponse: (sample["messages"] as unknown[]).length },
  };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

async function bot(chat: Chat): Promise<Section> {
  const port = await freePort();
  const botUrl = `http://127.0.0.1:${port}/`;
  const b = await chat.child.call<Account & { token: string }>("createBot", {
    shortName: "helloworld",
    fullName: "Hello World",
    botType: BotType.OUTGOING_WEBHOOK,
    payloadUrl: botUrl,
  });
  await chat.child.call("createStream", { name: "bots", userIds: [] });
  const botChild = await spawnChild("botserver", {
    env: {
      BENCH_BOT: JSON.stringify({ email: b.email, key: b.apiKey, site: chat.url, token: b.token, port }),
    },
  });
  const botStats = () =>
    botChild.call<{ requests: number; statuses: Record<string, number>; firstError?: string }>("stats");
  const out: Section = { na: {} };
  try {
    // The sender's own queue, long-polled: the bot's reply arrives there.
    const q = await registerHttp(chat.client, chat.owner, ["message"]);
    const pollClient = new Client(chat.url, 4);
    let last = q.lastEventId;
    let onReply: ((t: bigint) => void) | undefined;
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        let res;
        try {
          res = await pollClient.request(
            "GET",
            `/api/v1/events?queue_id=${q.queueId}&last_event_id=${last}`,
            {
              auth: chat.owner,
            },
          );
        } catch {
          return;
        }
        const t = now();
        for (const e of (res.body["events"] ?? []) as {
          id: number;
          type: string;
          message?: { sender_id: number };
        }[]) {
          last = Math.max(last, e.id);
          if (e.type === "message" && e.message?.sender_id === b.id) onReply?.(t);
        }
      }
    })();
    const mention = async (i: number): Promise<{ rt: bigint | undefined; id: number }> => {
      const reply = new Promise<bigint>((resolve) => (onReply = resolve));
      const t0 = now();
      const body = await chat.client.ok("POST", "/api/v1/messages", {
        auth: chat.owner,
        form: { type: "stream", to: "bots", topic: "bench", content: `@**Hello World** hello ${i}` },
      });
      const t = await Promise.race([reply, new Promise<undefined>((r) => setTimeout(r, 3_000, undefined))]);
      onReply = undefined;
      return { rt: t === undefined ? undefined : t - t0, id: body["id"] as number };
    };
    const probe = await mention(-1);
    const afterProbe = await botStats();
    let messageId = probe.id;
    if (probe.rt === undefined) {
      const reason =
        afterProbe.requests === 0
          ? "the chat server made no request to the bot server within 3 s of a mention: outgoing webhooks are not implemented in this tree"
          : `the bot server was called (${afterProbe.requests} requests) but no reply reached the sender's queue within 3 s`;
      out["roundTripP50Ms"] = null;
      out["roundTripP99Ms"] = null;
      out.na!["roundTripP50Ms"] = reason;
      out.na!["roundTripP99Ms"] = reason;
    } else {
      const rts: bigint[] = [];
      let lost = 0;
      for (let i = 0; i < P.botSamples; i++) {
        const m = await mention(i);
        messageId = m.id;
        if (m.rt === undefined) lost++;
        else rts.push(m.rt);
      }
      const s = summarizeNs(rts);
      out["roundTripSamples"] = s.count;
      out["roundTripLost"] = lost;
      out["roundTripP50Ms"] = s.p50Ms;
      out["roundTripP99Ms"] = s.p99Ms;
    }
    stopped = true;
    pollClient.close();
    await loop;

    // The bot server under load: a valid outgoing-webhook payload (a mention of a real message).
    const payload = {
      bot_email: b.email,
      bot_full_name: "Hello World",
      token: b.token,
      trigger: "mention",
      data: "@**Hello World** hello",
      message: {
        id: messageId,
        content: "@**Hello World** hello",
        sender_id: chat.owner.id,
        sender_email: chat.owner.email,
        sender_full_name: "Organization Owner",
        type: "stream",
        display_recipient: "bots",
        stream_id: 0,
        subject: "bench",
      },
    };
    const before = await botStats();
    const r = await load({
      url: botUrl,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    const after = await botStats();
    const statuses: Record<string, number> = {};
    for (const [k, v] of Object.entries(after.statuses)) statuses[k] = v - (before.statuses[k] ?? 0);
    out["botServerRequestsPerSec"] = r.requestsPerSec;
    out["botServerP50Ms"] = r.p50Ms;
    out["botServerP99Ms"] = r.p99Ms;
    out["botServerNon2xx"] = r.non2xx;
    out["botServerStatuses"] = statuses;
    if (after.firstError !== undefined) out["botServerFirstError"] = after.firstError;
    await chat.child.call("idle");
    return out;
  } finally {
    await botChild.stop();
  }
}

async function idleQueues(): Promise<Section> {
  const child = await spawnChild("idle", { execArgv: ["--expose-gc"] });
  try {
    const m = await child.call<{
      queues: number;
      rssBefore: number;
      rssAfter: number;
      heapBefore: number;
      heapAfter: number;
    }>("measure", { count: P.idleQueues, users: P.idleUsers }, 300_000);
    return {
      queues: m.queues,
      users: P.idleUsers,
      rssBeforeMB: round(m.rssBefore / 2 ** 20, 1),
      rssAfterMB: round(m.rssAfter / 2 ** 20, 1),
      bytesPerQueue: Math.round((m.rssAfter - m.rssBefore) / m.queues),
      heapBytesPerQueue: Math.round((m.heapAfter - m.heapBefore) / m.queues),
    };
  } finally {
    await child.stop();
  }
}

// ------------------------------------------------------------------ main

async function guarded(name: string, metrics: string[], fn: () => Promise<Section>): Promise<void> {
  if (name !== "messages" && !wanted(name)) return;
  const t = Date.now();
  process.stderr.write(`bench: ${name}…\n`);
  try {
    sections[name] = await fn();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.stderr.write(`bench: ${name} failed: ${reason}\n`);
    sections[name] = fail(metrics, reason);
  }
  process.stderr.write(`bench: ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}

function machine() {
  const cpuinfo = fs.existsSync("/proc/cpuinfo") ? fs.readFileSync("/proc/cpuinfo", "utf8") : "";
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? "unknown";
  return {
    nproc: os.availableParallelism(),
    cpu: model.trim(),
    node: process.version,
    memGB: round(os.totalmem() / 2 ** 30, 1),
    loadAvgAtStart: LOAD_AT_START,
    loadAvgAtEnd: os.loadavg().map((n) => round(n, 2)),
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  await guarded("ceiling", ["requestsPerSec", "p50Ms", "p99Ms"], ceiling);
  // Issue 27's targets: the real command line's start-up and memory (bench/startup.ts).
  await guarded("startup", ["helpMs", "restartMs", "rssAtRestMB"], () => startupBench(QUICK));

  const chatNeeded = ["webhook", "sendToEvent", "fanout", "messagesPost", "messagesGet", "bot"].some(wanted);
  if (chatNeeded) {
    const execArgv =
      CPU_PROF_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`];
    const child = await spawnChild("chat", { execArgv });
    const ready = child.ready as { url: string; owner: Account };
    const client = new Client(ready.url, 64);
    try {
      const users = await child.call<Account[]>(
        "bulkUsers",
        { prefix: "u", count: Math.max(P.fanoutSubscribers, P.pollers, P.webhookSubscribers, 100) },
        300_000,
      );
      const chat: Chat = { child, url: ready.url, owner: ready.owner, client, users };
      await guarded("webhook", ["requestsPerSec", "p50Ms", "p99Ms"], () => webhook(chat));
      await guarded("sendToEvent", ["p50Ms", "p99Ms"], () => sendToEvent(chat));
      await guarded("fanout", ["p50Ms", "maxMs", "sendP50Ms"], () => fanout(chat));
      if (wanted("messagesPost") || wanted("messagesGet")) {
        const metrics = ["requestsPerSec", "p50Ms", "p99Ms"];
        let got: { post: Section; get: Section } | undefined;
        await guarded("messages", metrics, async () => {
          got = await messages(chat);
          return got.post;
        });
        const failed = sections["messages"];
        delete sections["messages"];
        sections["messagesPost"] = got?.post ?? failed!;
        sections["messagesGet"] = got?.get ?? failed!;
      }
      await guarded("bot", ["roundTripP50Ms", "roundTripP99Ms", "botServerRequestsPerSec"], () => bot(chat));
    } finally {
      client.close();
      await child.stop(30_000);
    }
  }
  await guarded("idleQueues", ["bytesPerQueue"], idleQueues);
  await guarded("web", ["firstScreenMs", "jsGzipBytes", "latencyMedianMs"], () => webBench(QUICK));
  // Real chat-server and bot-server processes take ~15 s even in --quick: there only with --only bots.
  if (!QUICK || ONLY !== undefined) {
    await guarded("bots", ["sustainedMentionsPerSec", "burstDrainSec"], () => botsBench(QUICK));
    // The delivery log's cost: webhook throughput with the log on vs off (bench/deliveries.ts).
    await guarded("deliveries", ["throughputCostPercent", "mainThreadCostPercent", "costPercent"], () =>
      deliveriesBench(QUICK),
    );
    // Tracing's cost: the same A/B with OTLP export on in one server (issue 27's 5 % target).
    await guarded("tracing", ["throughputCostPercent", "mainThreadCostPercent", "costPercent"], () =>
      deliveriesBench(QUICK, { tracing: true }),
    );
    // Issue 16's comparison: the webhook at 1/100/10,000 subscribers vs a bare Koa app (bench/ratio.ts).
    await guarded("ratio", ["webhook1Ratio", "webhook100Ratio", "webhook10000Ratio", "send10kP50Ms"], () =>
      ratioBench(QUICK),
    );
    await guarded(
      "scale",
      ["oneWorkerMessagesPerSec", "twoWorkersMessagesPerSec", "crossProcessSendToEventP50Ms"],
      () => scaleBench(QUICK),
    );
  }
  await guarded("search", ["p50Ms", "p99Ms"], async () => {
    const r = await searchAndUploadBench(QUICK);
    sections["upload"] = r.upload;
    return r.search;
  });
  await guarded("unread", ["registerUnreadP50Ms", "send10kP50Ms"], async () => ({ ...(await unreadBench(QUICK)) })); // prettier-ignore

  // Ratios to the ceiling: throughput as a fraction of it, latencies as a multiple of it.
  const ceil = sections["ceiling"];
  const ceilRps = typeof ceil?.["requestsPerSec"] === "number" ? ceil["requestsPerSec"] : undefined;
  const ceilP50 = typeof ceil?.["p50Ms"] === "number" ? ceil["p50Ms"] : undefined;
  const ceilP99 = typeof ceil?.["p99Ms"] === "number" ? ceil["p99Ms"] : undefined;
  for (const [name, s] of Object.entries(sections)) {
    if (name === "ceiling" || name === "idleQueues" || name === "startup") continue;
    const ratios: Record<string, Metric> = {};
    for (const [k, v] of Object.entries(s)) {
      if (typeof v !== "number") continue;
      if (/RequestsPerSec$|^requestsPerSec$/.test(k) && ceilRps) ratios[k] = round(v / ceilRps, 3);
      else if (/P50Ms$|^p50Ms$/i.test(k) && ceilP50) ratios[k] = round(v / ceilP50, 2);
      else if (/P99Ms$|^p99Ms$|MaxMs$|^maxMs$/i.test(k) && ceilP99) ratios[k] = round(v / ceilP99, 2);
    }
    s["vsCeiling"] = ratios;
  }

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    mode: QUICK ? "quick" : "full",
    load: {
      client: "autocannon 8",
      connections: P.connections,
      durationSec: P.durationSec,
      warmupSec: P.warmupSec,
    },
    params: P,
    elapsedSec: round((Date.now() - started) / 1000, 1),
    sections,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(result, null, 2) + "\n");
  printTable(result);
  process.stdout.write(`\nwritten ${path.relative(process.cwd(), OUT) || OUT}\n`);
}

function printTable(result: {
  date: string;
  machine: ReturnType<typeof machine>;
  mode: string;
  sections: Record<string, Section>;
}): void {
  const rows: [string, string, string][] = [];
  const fmt = (s: Section | undefined, k: string, unit: string): [string, string] => {
    if (s === undefined) return ["skipped", ""];
    const v = s[k];
    if (typeof v !== "number") return [`n/a (${s.na?.[k] ?? "not measured"})`, ""];
    const ratio = (s["vsCeiling"] as Record<string, number> | undefined)?.[k];
    return [`${v} ${unit}`, ratio === undefined ? "" : `×${ratio}`];
  };
  const add = (label: string, section: string, k: string, unit: string): void => {
    rows.push([label, ...fmt(sections[section], k, unit)]);
  };
  add("ceiling (bare Koa JSON POST)", "ceiling", "requestsPerSec", "req/s");
  add("chat-server --help (target < 300 ms)", "startup", "helpMs", "ms");
  add("restart to first answer (target < 500 ms)", "startup", "restartMs", "ms");
  add("RSS at rest, empty store (target < 100 MB)", "startup", "rssAtRestMB", "MB");
  add("ceiling p50 / p99", "ceiling", "p50Ms", "ms");
  add("", "ceiling", "p99Ms", "ms");
  add("webhook ingestion (GitHub push)", "webhook", "requestsPerSec", "req/s");
  add("webhook p50", "webhook", "p50Ms", "ms");
  add("webhook p99", "webhook", "p99Ms", "ms");
  add("send→event p50", "sendToEvent", "p50Ms", "ms");
  add("send→event p99", "sendToEvent", "p99Ms", "ms");
  add("fan-out to every queue p50", "fanout", "p50Ms", "ms");
  add("fan-out max", "fanout", "maxMs", "ms");
  add("fan-out send latency p50", "fanout", "sendP50Ms", "ms");
  add("PG+Redis, 1 worker: messages", "scale", "oneWorkerMessagesPerSec", "msg/s");
  add("PG+Redis, 2 workers: messages", "scale", "twoWorkersMessagesPerSec", "msg/s");
  add("send→event across processes p50", "scale", "crossProcessSendToEventP50Ms", "ms");
  add("idle queue (RSS)", "idleQueues", "bytesPerQueue", "B/queue");
  add("idle queue (V8 heap)", "idleQueues", "heapBytesPerQueue", "B/queue");
  add("bot round trip p50", "bot", "roundTripP50Ms", "ms");
  add("bot round trip p99", "bot", "roundTripP99Ms", "ms");
  add("bot server POST /", "bot", "botServerRequestsPerSec", "req/s");
  add("bot server p99", "bot", "botServerP99Ms", "ms");
  add("bots: sustained mentions answered", "bots", "sustainedMentionsPerSec", "mentions/s");
  add("bots: burst drained, default pacing", "bots", "burstDrainSec", "s");
  add("bots: burst drained, pacing lifted", "bots", "burstUnpacedDrainSec", "s");
  add("webhook, delivery log off", "deliveries", "offRequestsPerSec", "req/s");
  add("webhook, delivery log on", "deliveries", "onRequestsPerSec", "req/s");
  add("webhook CPU/request, log off / on", "deliveries", "offCpuMsPerRequest", "ms");
  add("", "deliveries", "onCpuMsPerRequest", "ms");
  add("delivery log cost (throughput)", "deliveries", "throughputCostPercent", "%");
  add("delivery log cost (main thread CPU)", "deliveries", "mainThreadCostPercent", "%");
  add("delivery log cost (CPU, all threads)", "deliveries", "costPercent", "%");
  add("tracing cost (throughput)", "tracing", "throughputCostPercent", "%");
  add("tracing cost (main thread CPU)", "tracing", "mainThreadCostPercent", "%");
  for (const [label, value] of sections["ratio"] === undefined ? [] : ratioRows(sections["ratio"]))
    rows.push([`ratio: ${label}`, value, ""]);
  add("POST /messages (50 conns)", "messagesPost", "requestsPerSec", "req/s");
  add("POST /messages p99", "messagesPost", "p99Ms", "ms");
  add("GET /messages (100 msgs)", "messagesGet", "requestsPerSec", "req/s");
  add("GET /messages p99", "messagesGet", "p99Ms", "ms");
  add("web: first screen, 10,000 messages", "web", "firstScreenMs", "ms");
  add("web: JavaScript shipped (gzip)", "web", "jsGzipBytes", "B");
  add("web: browser→browser message, median", "web", "latencyMedianMs", "ms");
  add("search narrow, 100,000 messages, p50", "search", "p50Ms", "ms");
  add("search narrow p99", "search", "p99Ms", "ms");
  add("upload 10 MB (POST /user_uploads), p50", "upload", "uploadP50Ms", "ms");
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const m = result.machine;
  process.stdout.write(
    `\nBenchmark (${result.mode}) ${result.date} — ${m.nproc} × ${m.cpu}, Node ${m.node}, load average ${m.loadAvgAtStart.join(" ")} → ${m.loadAvgAtEnd.join(" ")}\n\n`,
  );
  for (const [a, b, c] of rows)
    process.stdout.write(`${a.padEnd(w0)}  ${b.padStart(Math.min(w1, 24))}  ${c}\n`);
}

try {
  await main();
  process.exit(0);
} catch (err) {
  console.error(err);
  process.exit(1);
}
