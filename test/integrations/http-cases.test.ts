/**
 * Every recorded case of every registered integration, through the real HTTP endpoint of a
 * listening server: the exact bytes, headers and URL the service sent, then the message read back
 * through the API (raw Markdown) and compared byte for byte with the case's expected topic and body.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integrations } from "../../integrations/index.js";
import { caseBody, loadCases, multipartFields, unquote } from "../../integrations/kit/index.js";
import type { WebhookCase } from "../../integrations/kit/index.js";
import { Role } from "../../src/domain/users/types.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const root = fileURLToPath(new URL("../../integrations/", import.meta.url));
const names = new Set(integrations.map((i) => i.name));

/** Each case once, from the folder that holds it, keyed by the integration its URL names. */
function allCases(): WebhookCase[] {
  const seen = new Set<string>();
  const out: WebhookCase[] = [];
  for (const integration of integrations) {
    for (const folder of [integration.name, integration.name.replace(/sponsors$/, "")]) {
      for (const c of loadCases(path.join(root, folder, "fixtures", "cases"))) {
        const key = `${c.url_path} ${c.case_id}`;
        if (seen.has(key) || !names.has(c.url_path.replace("/api/v1/external/", ""))) continue;
        seen.add(key);
        out.push(c);
      }
    }
  }
  return out;
}

let t: TestServer;
const streams = new Set<string>();
/** Users of Zulip's test realm that cases name (`{example_user:aaron.email}`), created when first named. */
const realmUsers = new Map<string, TestServer["users"]["iago"]>();

async function exampleUser(short: string): Promise<TestServer["users"]["iago"]> {
  const known = realmUsers.get(short);
  if (known !== undefined) return known;
  const owner = t.running.firstStart?.owner;
  if (owner === undefined) throw new Error("the test server has no owner");
  const email = `${short}@zulip.com`;
  const u = await t.running.services.users.createUser(owner, {
    email,
    password: `${email}-password`,
    fullName: short,
    role: Role.MEMBER,
    joinDefaultStreams: false,
  });
  const user = { id: u.id, email: u.email, apiKey: u.apiKey, fullName: u.fullName };
  realmUsers.set(short, user);
  return user;
}

/** The case's URL with the bot's API key and the realm users it names filled in. */
async function caseUrl(c: WebhookCase): Promise<string> {
  let url = c.url.replace("{api_key}", t.users.webhookBot.apiKey);
  for (const m of c.url.matchAll(/\{example_user:([a-z_]+)\.email\}/g)) {
    const user = await exampleUser(m[1] ?? "");
    url = url.replace(m[0], encodeURIComponent(user.email));
  }
  return url;
}

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function ensureStream(name: string): Promise<void> {
  if (streams.has(name)) return;
  const res = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name }], principals: [t.users.webhookBot.email, t.users.iago.email] },
  });
  expect(res.status).toBe(200);
  streams.add(name);
}

interface WireMessage {
  id: number;
  subject: string;
  content: string;
  sender_email: string;
  display_recipient: string | { email: string }[];
}

async function newest(narrow: unknown[]): Promise<WireMessage | undefined> {
  return newestAs(t.users.iago, narrow);
}

async function newestAs(
  user: TestServer["users"]["iago"],
  narrow: unknown[],
): Promise<WireMessage | undefined> {
  const res = await t.api.get("/api/v1/messages", {
    as: user,
    // The topic as stored, as Zulip's recorded cases give it: a client that declares it handles the
    // empty topic reads "" (without, it reads the realm's "general chat").
    params: {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow,
      apply_markdown: false,
      allow_empty_topic_name: true,
    },
  });
  expect(res.status).toBe(200);
  const messages = res.body.messages as WireMessage[];
  return messages[messages.length - 1];
}

/** The newest message the webhook bot sent, to a stream or privately to anyone. */
async function newestFromBot(): Promise<WireMessage | undefined> {
  const everyone = [...Object.values(t.users), ...realmUsers.values()].filter(
    (u) => u !== t.users.webhookBot,
  );
  const seen = await Promise.all(everyone.map((u) => newestAs(u, [["sender", t.users.webhookBot.email]])));
  return seen.filter((m): m is WireMessage => m !== undefined).sort((x, y) => y.id - x.id)[0];
}

function recipientsOf(m: WireMessage | undefined): string[] {
  const to = m?.display_recipient;
  return Array.isArray(to) ? to.map((r) => r.email.toLowerCase()).sort() : [];
}

async function maxMessageId(): Promise<number> {
  const res = await t.api.get("/api/v1/users/me", { as: t.users.iago });
  return res.body.max_message_id as number;
}

async function post(c: WebhookCase): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.content_type !== null) headers["content-type"] = c.content_type;
  const url = t.url + (await caseUrl(c));
  if (c.auth === "http_basic") {
    const credentials = `${t.users.webhookBot.email}:${t.users.webhookBot.apiKey}`;
    headers["authorization"] = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  let body: BodyInit = new Uint8Array(caseBody(c));
  if (c.body_encoding === "multipart") {
    // fetch writes the multipart body and its Content-Type (with the boundary) itself.
    delete headers["content-type"];
    const form = new FormData();
    for (const [k, v] of Object.entries(multipartFields(c))) form.append(k, v);
    body = form;
  }
  const res = await fetch(url, { method: "POST", headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const cases = allCases();

describe("recorded webhook cases over HTTP", () => {
  it("finds the cases of every registered integration", () => {
    const covered = new Set(cases.map((c) => c.url_path.replace("/api/v1/external/", "")));
    expect([...names].filter((n) => !covered.has(n))).toEqual([]);
  });

  for (const c of cases) {
    const name = c.url_path.replace("/api/v1/external/", "");
    it(`${name}: ${c.case_id}`, async () => {
      const channel = c.channel === undefined || c.channel === null ? undefined : unquote(c.channel);
      if (channel !== undefined && channel !== "nonexistent") await ensureStream(channel);
      const before = await maxMessageId();
      const res = await post(c);

      switch (c.expect) {
        case "message": {
          // The last message the bot sent, to a stream or privately to a user the integration named.
          expect(res.status).toBe(200);
          const last = await newestFromBot();
          expect(last?.id).toBeGreaterThan(before);
          expect(last?.content).toBe(c.expected_message);
          break;
        }
        case "channel_message": {
          // Some services' answers carry a message or fields of their own (HelloSign's "Hello API
          // Event Received", Slack's `ok`): the case fixes only the posted message.
          expect({ status: res.status, result: res.body["result"] }).toEqual({
            status: 200,
            result: "success",
          });
          const where = c.expected_channel ?? channel ?? "";
          const m = await newest([["stream", where]]);
          expect(m?.id).toBeGreaterThan(before);
          expect({ topic: m?.subject, content: m?.content, sender: m?.sender_email }).toEqual({
            topic: c.expected_topic,
            content: c.expected_message,
            sender: t.users.webhookBot.email,
          });
          break;
        }
        case "direct_message": {
          expect(res.status).toBe(200);
          const named = /^user named by the `(\w+)` query parameter$/.exec(c.dm_recipient ?? "");
          if (c.dm_sender === "webhook_bot" && named !== null) {
            // Sent privately to the realm user the URL names (Dialogflow's `email`).
            const recipient = new URL(t.url + (await caseUrl(c))).searchParams.get(named[1] ?? "");
            const m = await newestFromBot();
            expect(m?.id).toBeGreaterThan(before);
            expect({ content: m?.content, to: recipientsOf(m) }).toEqual({
              content: c.expected_message,
              to: [t.users.webhookBot.email, recipient?.toLowerCase()].sort(),
            });
            break;
          }
          const sender =
            c.dm_sender === "notification_bot" ? "notification-bot@zulip.com" : t.users.webhookBot.email;
          const m = await newest([["pm-with", sender]]);
          expect(m?.id).toBeGreaterThan(before);
          expect({ content: m?.content, sender: m?.sender_email }).toEqual({
            content: c.expected_message,
            sender,
          });
          break;
        }
        case "no_message":
          expect(res).toEqual({
            status: 200,
            body: { result: "success", msg: "", ...(res.body["ok"] === true ? { ok: true } : {}) },
          });
          expect(await maxMessageId()).toBe(before);
          break;
        case "success_response": {
          // Zulip answers 200 "…; ignoring"; this project answers 200 with the spec's error body.
          const contains =
            (c as unknown as { expected_response_contains?: string[] }).expected_response_contains ?? [];
          const fields = (c as unknown as { expected_response_fields?: Record<string, unknown> })
            .expected_response_fields;
          const m = /^The '(.*)' event isn't currently supported by the (.*) webhook; ignoring$/.exec(
            contains[0] ?? "",
          );
          if (m !== null) {
            expect(res).toEqual({
              status: 200,
              body: {
                result: "error",
                msg: `The '${m[1]}' event isn't currently supported by the ${m[2]} webhook`,
                code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
                webhook_name: m[2],
                event_type: m[1],
              },
            });
          } else {
            expect(res.status).toBe(200);
            expect(res.body).toMatchObject({ result: "success", ...(fields ?? {}) });
          }
          // Nothing posted to the stream (the owner may get a notice about the dropped event).
          const latest = channel === undefined ? undefined : await newest([["stream", channel]]);
          expect(latest === undefined || latest.id <= before).toBe(true);
          break;
        }
        case "error_response":
          expect(res.status).toBe(c.expected_status);
          expect(res.body).toMatchObject(c.expected_response as Record<string, unknown>);
          break;
      }
    });
  }
});
