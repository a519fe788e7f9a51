/**
 * The bot server under mentions (issue 14), run by `npm run bench` (section "bots") or alone:
 *
 *   node bin/run-ts.js bench/bots.ts [--quick]
 *
 * Real processes: `chat-server serve` (rate limit off) and `botserver` running `encrypt` behind an
 * outgoing-webhook bot. The owner mentions the bot in a stream; a long-poller on the owner's event
 * queue counts the bot's replies.
 *
 * - sustainedMentionsPerSec: 16 senders mention the bot back to back for a fixed time, with the
 *   bot's pacing lifted (`--pace 1000000/1`); mentions answered per second, from the first mention
 *   to the last reply (what the chat server + bot server pipeline sustains on this machine);
 * - burstUnpacedDrainSec: a burst of mentions (200; 30 with --quick), from the first mention to
 *   the last reply, pacing lifted;
 * - burstDrainSec: the same burst with the default pacing (20 at once, then 4 per second): what an
 *   operator sees, dominated by the pacing (≈ (N − 20) / 4 s). Full mode only.
 * Every mention must be answered (`lost` counts those that were not within the wait).
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { YOUNG_GENERATION_FLAG } from "../src/lib/young-generation.js";
import { startProcess } from "../test/helpers/process.js";
import type { RunningProcess } from "../test/helpers/process.js";
import type { Account } from "./lib/http.js";
import { Client } from "./lib/http.js";
import { round } from "./lib/stats.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => resolve()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Counts the bot's replies arriving in the owner's event queue. */
class ReplyCounter {
  replies = 0;
  lastReplyAt = 0;
  private stopped = false;
  private readonly loop: Promise<void>;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly client: Client,
    private readonly owner: Account,
    private readonly botEmail: string,
    queueId: string,
    lastEventId: number,
  ) {
    this.loop = this.poll(queueId, lastEventId);
  }

  private async poll(queueId: string, lastEventId: number): Promise<void> {
    let last = lastEventId;
    while (!this.stopped) {
      let res;
      try {
        res = await this.client.request("GET", `/api/v1/events?queue_id=${queueId}&last_event_id=${last}`, {
          auth: this.owner,
        });
      } catch {
        if (this.stopped) return;
        continue;
      }
      for (const e of (res.body["events"] ?? []) as {
        id: number;
        type: string;
        message?: { sender_email: string };
      }[]) {
        last = Math.max(last, e.id);
        if (e.type === "message" && e.message?.sender_email === this.botEmail) {
          this.replies++;
          this.lastReplyAt = performance.now();
        }
      }
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Resolves when `count` replies have arrived in total, or after `timeoutMs`. */
  async waitFor(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.replies < count) {
      if (Date.now() > deadline) return false;
      await Promise.race([
        new Promise<void>((resolve) => this.waiters.push(resolve)),
        new Promise((r) => setTimeout(r, 500)),
      ]);
    }
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.client.close();
    await this.loop.catch(() => undefined);
  }
}

export async function botsBench(quick: boolean): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bots-"));
  const processes: RunningProcess[] = [];
  const start = (args: string[]): RunningProcess => {
    // The chat server with the Node options `npm start` passes.
    const node = args[0] === "chat-server.js" ? [YOUNG_GENERATION_FLAG] : [];
    const p = startProcess([...node, path.join(ROOT, "bin", args[0]!), ...args.slice(1)]);
    processes.push(p);
    return p;
  };
  const burst = quick ? 30 : 200;
  const sustainSec = quick ? 1 : 15;
  try {
    // The bot server's port, chosen first: the chat server must be told it may reach it (its egress
    // policy allows public addresses only otherwise).
    const botPort = await freePort();
    const chat = start([
      "chat-server.js",
      "serve",
      "--outgoing-webhook-allow",
      `127.0.0.1:${botPort}`,
      "--port",
      "0",
      "--data-dir",
      dir,
      "--owner-password",
      "pw",
      "--log-level",
      "warn",
      "--rate-limit",
      "off",
    ]);
    const url = (await chat.waitFor(/Chat server listening on (http:\/\/\S+)/))[1]!;
    const rc = fs.readFileSync(path.join(dir, "zuliprc"), "utf8");
    const ownerEmail = /email=(\S+)/.exec(rc)![1]!;
    const ownerKey = /key=(\S+)/.exec(rc)![1]!;
    const rcFile = path.join(dir, "botserverrc");
    const client = new Client(url, 32);
    const owner: Account = { id: 0, email: ownerEmail, apiKey: ownerKey };
    // The outgoing-webhook bot, created through the API (as `chat-server create-bot` does).
    const created = await client.ok("POST", "/api/v1/bots", {
      auth: owner,
      form: {
        full_name: "Encrypt",
        short_name: "encrypt",
        bot_type: "3",
        payload_url: JSON.stringify(`http://127.0.0.1:${botPort}/`),
      },
    });
    const botEmail = String(created["email"]);
    const services = created["services"] as { token: string }[];
    fs.writeFileSync(
      rcFile,
      `[encrypt]\nemail=${botEmail}\nkey=${String(created["api_key"])}\nsite=${url}\ntoken=${services[0]!.token}\n`,
      { mode: 0o600 },
    );
    const mention = "@**Encrypt**";
    const q = await client.ok("POST", "/api/v1/register", {
      auth: owner,
      form: { event_types: '["message"]', apply_markdown: "false" },
    });
    const counter = new ReplyCounter(
      new Client(url, 2),
      owner,
      botEmail,
      String(q["queue_id"]),
      Number(q["last_event_id"]),
    );
    let sent = 0;
    const send = async (topic: string): Promise<void> => {
      const i = sent++;
      await client.ok("POST", "/api/v1/messages", {
        auth: owner,
        form: { type: "stream", to: "general", topic, content: `${mention} bench ${i}` },
      });
    };
    const runBotServer = async (pace: string): Promise<RunningProcess> => {
      const p = start([
        "botserver.js",
        "--config-file",
        rcFile,
        "--port",
        String(botPort),
        "--pace",
        pace,
        "--queue-size",
        "100000",
      ]);
      await p.waitFor(/listening on http/);
      return p;
    };
    /** A burst of `n` mentions over 4 topics → seconds from the first mention to the last reply. */
    const runBurst = async (n: number): Promise<{ drainSec: number; lost: number }> => {
      const base = counter.replies;
      const t0 = performance.now();
      let left = n;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (left > 0) {
            left--;
            await send(`burst ${left % 4}`);
          }
        }),
      );
      const all = await counter.waitFor(base + n, 120_000);
      return {
        drainSec: round((counter.lastReplyAt - t0) / 1000, 2),
        lost: all ? 0 : base + n - counter.replies,
      };
    };

    const out: Record<string, unknown> = { burstMentions: burst, sustainSeconds: sustainSec, senders: 16 };
    // 1. Sustained, pacing lifted.
    let bots = await runBotServer("1000000/1");
    await send("warm-up");
    await counter.waitFor(1, 10_000);
    const base = counter.replies;
    const before = sent;
    const t0 = performance.now();
    const until = t0 + sustainSec * 1000;
    await Promise.all(
      Array.from({ length: 16 }, async (_, k) => {
        while (performance.now() < until) await send(`sustained ${k % 4}`);
      }),
    );
    const mentions = sent - before;
    const answered = await counter.waitFor(base + mentions, 120_000);
    out["sustainedMentions"] = mentions;
    out["sustainedMentionsPerSec"] = round(mentions / ((counter.lastReplyAt - t0) / 1000), 1);
    out["sustainedLost"] = answered ? 0 : base + mentions - counter.replies;
    // 2. Burst, pacing lifted.
    const unpaced = await runBurst(burst);
    out["burstUnpacedDrainSec"] = unpaced.drainSec;
    out["burstUnpacedLost"] = unpaced.lost;
    await bots.stop();
    // 3. Burst, default pacing (full mode: a second bot server process costs --quick too much).
    if (quick) {
      out["burstDrainSec"] = null;
      out["na"] = { burstDrainSec: "full mode only (npm run bench -- --only bots)" };
    } else {
      bots = await runBotServer("20/5");
      const paced = await runBurst(burst);
      out["burstDrainSec"] = paced.drainSec;
      out["burstLost"] = paced.lost;
      await bots.stop();
    }
    await counter.stop();
    client.close();
    return out;
  } finally {
    for (const p of processes.reverse()) await p.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await botsBench(process.argv.includes("--quick"));
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
