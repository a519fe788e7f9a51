/**
 * "No reply is ever dropped", end to end with real processes: 200 mentions in a burst through the
 * chat server (outgoing webhooks) to a separate bot server running `encrypt` with its default pacing
 * (20 messages, then 4 per second). Every mention is answered, in order within each topic, and the
 * sender sees no failure notice.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readZuliprc } from "../../src/tools/zuliprc.js";
import { apiClient } from "../helpers/client.js";
import type { ApiClient, Credentials } from "../helpers/client.js";
import { runProcess, startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { EventQueue, freePort } from "./e2e-helpers.js";

const MENTIONS = 200;
const TOPICS = ["burst a", "burst b", "burst c", "burst d"];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bot-burst-e2e-"));
const processes: RunningProcess[] = [];
let api: ApiClient;
let owner: Credentials;
let botPort: number;

function start(args: string[]): RunningProcess {
  const p = startProcess(args);
  processes.push(p);
  return p;
}

/** ROT13, written out here so the expected replies do not come from the bot's own code. */
function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

beforeAll(async () => {
  botPort = await freePort();
  const chat = start([
    "bin/chat-server.js",
    "serve",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--owner-password",
    "pw",
    "--log-level",
    "warn",
    // The sender's 200 mentions and the bot's 200 replies fit in the per-user limit.
    "--rate-limit",
    "600/60",
    "--outgoing-webhook-allow",
    `127.0.0.1:${botPort}`,
  ]);
  const m = await chat.waitFor(/Chat server listening on (http:\/\/\S+)/);
  api = apiClient(m[1]!);
  const rc = readZuliprc(path.join(dataDir, "zuliprc"));
  owner = { email: rc.email, apiKey: rc.key };
}, 30_000);

afterAll(async () => {
  for (const p of processes.reverse()) await p.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a burst of mentions through the chat server to the bot server (real processes)", () => {
  it(`answers all ${MENTIONS} mentions, in order per topic, with no failure notice`, async () => {
    const created = await runProcess([
      "bin/chat-server.js",
      "create-bot",
      "--name",
      "encrypt",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
      "--payload-url",
      `http://127.0.0.1:${botPort}/`,
      "--output",
      path.join(dataDir, "botserverrc"),
    ]);
    expect(created.code).toBe(0);
    const rcFile = path.join(dataDir, "botserverrc");
    const rcText = fs.readFileSync(rcFile, "utf8");
    const botEmail = /email=(\S+)/.exec(rcText)![1]!;
    const botServer = start(["bin/botserver.js", "--config-file", rcFile, "--port", String(botPort)]);
    await botServer.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/ with bots: encrypt/);
    const me = await api.get("/api/v1/users/me", {
      as: { email: botEmail, apiKey: /key=(\S+)/.exec(rcText)![1]! },
      skipSchemaCheck: true,
    });
    const mention = `@**${me.body.full_name as string}**`;

    const queue = await EventQueue.register(api, owner);
    const started = performance.now();
    // The burst: one sender per topic, the four in parallel. Within a topic each mention is sent
    // once the previous one is acknowledged, so "in order per topic" has one meaning (two people
    // posting in the same instant have no order a bot could keep).
    const sent: { topic: string; text: string; id: number }[] = [];
    await Promise.all(
      TOPICS.map(async (topic, t) => {
        for (let i = t; i < MENTIONS; i += TOPICS.length) {
          const text = `hello number ${String(i).padStart(3, "0")}`;
          const res = await api.post("/api/v1/messages", {
            as: owner,
            params: { type: "stream", to: "general", topic, content: `${mention} ${text}` },
            skipSchemaCheck: true,
          });
          if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
          sent.push({ topic, text, id: res.body.id as number });
        }
      }),
    );
    const messages = await queue.collect(
      (ms) => ms.filter((m) => m.sender_email === botEmail).length >= MENTIONS,
      170_000,
    );
    const drainSeconds = (performance.now() - started) / 1000;
    console.log(`${MENTIONS} mentions answered in ${drainSeconds.toFixed(1)} s (default pacing 20/5)`);

    const replies = messages.filter((m) => m.sender_email === botEmail);
    // Every reply is an answer (a failure notice would be a message of the bot with other text).
    expect(replies.filter((r) => !r.content.startsWith("Encrypted/Decrypted text: "))).toEqual([]);
    expect(replies.length).toBe(MENTIONS);
    // In order per topic: the replies of each topic follow the order of the mentions' ids.
    const byId = [...sent].sort((a, b) => a.id - b.id);
    for (const topic of TOPICS) {
      const expected = byId
        .filter((s) => s.topic === topic)
        .map((s) => `Encrypted/Decrypted text: ${rot13(s.text)}`);
      expect({ topic, replies: replies.filter((r) => r.subject === topic).map((r) => r.content) }).toEqual({
        topic,
        replies: expected,
      });
    }
    // Nothing else reached the stream (no notice from the Notification Bot either).
    expect(messages.filter((m) => m.sender_email !== botEmail && m.sender_email !== owner.email)).toEqual([]);
    const metrics = await fetch(`http://127.0.0.1:${botPort}/metrics`).then((r) => r.text());
    expect(metrics.split("\n").filter((l) => l.startsWith("botserver_requests_total"))).toEqual([
      `botserver_requests_total{bot="encrypt",outcome="accepted"} ${MENTIONS}`,
    ]);
  }, 200_000);
});
