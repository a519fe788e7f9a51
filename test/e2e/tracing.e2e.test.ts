/**
 * OpenTelemetry end to end, with real processes (issue 27): a chat server and a bot server, both
 * exporting over OTLP/HTTP to a receiver in this test. A mention of a bot is one trace: the send,
 * the outgoing webhook, the bot server's handling and the bot's reply through the chat API, each
 * span the parent of the next across the processes (W3C traceparent), and the log lines of both
 * servers carry that trace id. An incoming webhook's trace continues the sender's traceparent through
 * its message's send and fan-out.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { readZuliprc } from "../../src/tools/zuliprc.js";
import { apiClient } from "../helpers/client.js";
import type { ApiClient, Credentials } from "../helpers/client.js";
import { runProcess, startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { EventQueue, freePort } from "./e2e-helpers.js";

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
}

/** OTLP/JSON ids are hex; a base64 id (the protobuf-JSON mapping) is turned into hex too. */
const hex = (id: unknown): string => {
  const s = typeof id === "string" ? id : "";
  return /^[0-9a-f]*$/i.test(s) ? s.toLowerCase() : Buffer.from(s, "base64").toString("hex");
};

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpBody {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: Record<string, unknown>[] }[];
  }[];
}

const spans: ReceivedSpan[] = [];
const changed: (() => void)[] = [];
let receiver: http.Server;
let receiverUrl: string;

/** Resolves once `pred` holds of the spans received so far (checked at each export). */
function spansWhere(pred: (all: ReceivedSpan[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (pred(spans)) resolve();
      else changed.push(check);
    };
    check();
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracing-e2e-"));
const processes: RunningProcess[] = [];
let chat: RunningProcess;
let api: ApiClient;
let owner: Credentials;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpBody;
      for (const rs of body.resourceSpans ?? []) {
        const service =
          rs.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: hex(s["traceId"]),
              spanId: hex(s["spanId"]),
              parentSpanId: hex(s["parentSpanId"]),
              name: String(s["name"]),
              kind: Number(s["kind"]),
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const c of changed.splice(0)) c();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const p of processes.reverse()) await p.stop();
  await new Promise((resolve) => receiver.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const SERVER = 2;
const CLIENT = 3;

let bots: RunningProcess;
const zuliprc = path.join(dataDir, "zuliprc");

beforeAll(async () => {
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_BSP_SCHEDULE_DELAY: "50" };
  const botPort = await freePort();
  chat = startProcess(
    [
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--owner-password",
      "pw",
      "--outgoing-webhook-allow",
      `127.0.0.1:${botPort}`,
    ],
    otel,
  );
  processes.push(chat);
  const chatUrl = (await chat.waitFor(/Chat server listening on (http:\/\/\S+)/))[1]!;
  api = apiClient(chatUrl);
  const rc = readZuliprc(zuliprc);
  owner = { email: rc.email, apiKey: rc.key };

  const created = await runProcess([
    "bin/chat-server.js",
    "create-bot",
    "--name",
    "helloworld",
    "--zuliprc",
    zuliprc,
    "--payload-url",
    `http://127.0.0.1:${botPort}/`,
  ]);
  expect(created.code).toBe(0);
  const section = /\[helloworld\]\n(?:\w+=\S+\n)+/.exec(created.output)![0];
  const botserverrc = path.join(dataDir, "botserverrc");
  fs.writeFileSync(botserverrc, section);
  bots = startProcess(["bin/botserver.js", "--config-file", botserverrc, "--port", String(botPort)], otel);
  processes.push(bots);
  await bots.waitFor(/with bots: helloworld/);
}, 90_000); // two processes start: slow on a busy machine

/** The spans of one trace, found from its root, and the hops a mention of the bot makes. */
function traceOf(root: ReceivedSpan) {
  const inTrace = () => spans.filter((s) => s.traceId === root.traceId);
  const childOf = (parent: ReceivedSpan, pred: (s: ReceivedSpan) => boolean) =>
    inTrace().find((s) => s.parentSpanId === parent.spanId && pred(s));
  const descendant = (from: ReceivedSpan, pred: (s: ReceivedSpan) => boolean): ReceivedSpan | undefined => {
    const direct = childOf(from, pred);
    if (direct !== undefined) return direct;
    for (const c of inTrace().filter((s) => s.parentSpanId === from.spanId)) {
      const found = descendant(c, pred);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return { inTrace, childOf, descendant };
}

/**
 * Follows the root's trace: a `message send` inside it, the outgoing webhook below it, the bot
 * server's `POST /` as the webhook's child, and the bot's reply (the chat server's `POST
 * /api/v1/messages`, child of a bot server's API call made while handling). Returns the hops.
 */
async function followMentionToReply(
  root: ReceivedSpan,
): Promise<{ handled: ReceivedSpan; reply: ReceivedSpan }> {
  const { inTrace, childOf, descendant } = traceOf(root);
  const outgoing = (s: ReceivedSpan) =>
    s.service === "chat-server" && s.kind === CLIENT && s.name === "outgoing webhook POST";
  await spansWhere(() => descendant(root, outgoing) !== undefined);
  const webhook = descendant(root, outgoing)!;
  expect(descendant(root, (s) => s.name === "message send")).toBeDefined();

  await spansWhere(() => childOf(webhook, (s) => s.service === "botserver") !== undefined);
  const handled = childOf(webhook, (s) => s.service === "botserver")!;
  expect([handled.kind, handled.name]).toEqual([SERVER, "POST /"]);

  const isReply = (s: ReceivedSpan) => {
    if (s.service !== "chat-server" || s.kind !== SERVER || s.name !== "POST /api/v1/messages") return false;
    const call = inTrace().find((c) => c.spanId === s.parentSpanId);
    return call?.service === "botserver" && call.kind === CLIENT && call.parentSpanId === handled.spanId;
  };
  await spansWhere(() => inTrace().some(isReply));
  return { handled, reply: inTrace().find(isReply)! };
}

/** Resolves with the first root span (no parent) that `pred` accepts, once it has been exported. */
async function rootWhere(pred: (s: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  await spansWhere((all) => all.some((s) => pred(s) && s.parentSpanId === ""));
  return spans.find((s) => pred(s) && s.parentSpanId === "")!;
}

describe("traces across the chat server and the bot server", () => {
  it("follows a mention from the send through the outgoing webhook and the bot server to the reply", async () => {
    const queue = await EventQueue.register(api, owner);
    const sent = await api.post("/api/v1/messages", {
      as: owner,
      params: { type: "stream", to: "general", topic: "traces", content: "@**helloworld** trace me" },
    });
    expect(sent.status).toBe(200);
    const messageId = sent.body.id as number;
    await queue.waitForMessage((m) => m.sender_email === "helloworld-bot@example.com" && m.id > messageId);

    // The owner's send is the root of a trace; each next hop is found by its parent.
    const root = await rootWhere(
      (s) => s.service === "chat-server" && s.kind === SERVER && s.name === "POST /api/v1/messages",
    );
    expect(traceOf(root).childOf(root, (s) => s.name === "message send")).toBeDefined();
    await followMentionToReply(root);

    // Both servers' log lines written while serving the trace name it (`trace_id="…"`).
    const logged = (p: RunningProcess) => p.output().includes(`trace_id="${root.traceId}"`);
    expect([logged(chat), logged(bots)]).toEqual([true, true]);
  }, 90_000);

  it("records nothing of a trace its caller did not sample, in either process, and passes the decision on", async () => {
    const queue = await EventQueue.register(api, owner);
    const mention = async (traceparent: string, content: string): Promise<void> => {
      const sent = await api.post("/api/v1/messages", {
        as: owner,
        headers: { traceparent },
        params: { type: "stream", to: "general", topic: "sampling", content: `@**helloworld** ${content}` },
      });
      expect(sent.status).toBe(200);
      const id = sent.body.id as number;
      await queue.waitForMessage((m) => m.sender_email === "helloworld-bot@example.com" && m.id > id);
    };
    const unsampled = "5bf92f3577b34da6a3ce929d0e0e4737";
    await mention(`00-${unsampled}-00f067aa0ba902b8-00`, "not sampled");
    // The same path sampled, after it: once its spans from both processes have arrived, those the
    // first mention would have made (ended before them, exported in order) would have too.
    await mention("00-6bf92f3577b34da6a3ce929d0e0e4738-00f067aa0ba902b9-01", "sampled");
    const isSend = (s: ReceivedSpan) => s.service === "chat-server" && s.name === "POST /api/v1/messages";
    await spansWhere((all) => all.some((s) => isSend(s) && s.parentSpanId === "00f067aa0ba902b9"));
    await followMentionToReply(spans.find((s) => isSend(s) && s.parentSpanId === "00f067aa0ba902b9")!);

    expect(spans.filter((s) => s.traceId === unsampled)).toEqual([]);
    // The bot server was told the trace id and the decision: its log lines name the trace.
    expect(bots.output()).toContain(`trace_id="${unsampled}"`);
  }, 90_000);

  it("traces an incoming webhook through its message and fan-out", async () => {
    // As a service would: the URL integration-url prints, then one POST of the service's payload.
    const made = await runProcess([
      "bin/chat-server.js",
      "integration-url",
      "ifttt",
      "--stream",
      "general",
      "--zuliprc",
      zuliprc,
    ]);
    expect(made.code).toBe(0);
    const hook = /^ {2}(http:\/\/\S+\/api\/v1\/external\/ifttt\?api_key=\w{32}&stream=general)$/m.exec(
      made.output,
    )?.[1];
    expect(hook).toBeDefined();
    const posted = await fetch(hook!, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      },
      body: JSON.stringify({ topic: "deploys", content: "Deployed v2." }),
    });
    expect(posted.status).toBe(200);

    // The service's traceparent is the parent of the webhook's server span; the message's send and
    // its fan-out are inside it.
    const isHook = (s: ReceivedSpan) =>
      s.service === "chat-server" && s.kind === SERVER && s.name === "POST /api/v1/external/:integration";
    await spansWhere((all) => all.some((s) => isHook(s) && s.parentSpanId === "00f067aa0ba902b7"));
    const root = spans.find((s) => isHook(s) && s.parentSpanId === "00f067aa0ba902b7")!;
    expect(root.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    const { childOf } = traceOf(root);
    await spansWhere(() => childOf(root, (s) => s.name === "message send") !== undefined);
    const send = childOf(root, (s) => s.name === "message send")!;
    await spansWhere(() => childOf(send, (s) => s.name === "event fan-out") !== undefined);
    expect(chat.output()).toContain(`trace_id="${root.traceId}"`);
  }, 90_000);
});
