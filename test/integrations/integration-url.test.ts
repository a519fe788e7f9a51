/**
 * `chat-server integration-url`: an incoming-webhook bot created (then reused) through the API of a
 * running server, and a URL that posts.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { integrations } from "../../integrations/index.js";
import { integrationSummary } from "../../src/domain/webhooks/integration-summary.js";
import { integrationUrl, integrationUrlText } from "../../src/tools/integration-url.js";
import { BotNameTakenError } from "../../src/tools/bots.js";
import { runProcess } from "../helpers/process.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
let zuliprc: string;

beforeAll(async () => {
  t = await startTestServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "integration-url-"));
  zuliprc = path.join(dir, "zuliprc");
  fs.writeFileSync(
    zuliprc,
    `[api]\nemail=${t.users.iago.email}\nkey=${t.users.iago.apiKey}\nsite=${t.url}\n`,
    {
      mode: 0o600,
    },
  );
  const res = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name: "deploys" }] },
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

const found = integrations.find((i) => i.name === "helloworld");
const helloworld = found === undefined ? undefined : integrationSummary(found);
const rc = (): { email: string; key: string; site: string } => ({
  email: t.users.iago.email,
  key: t.users.iago.apiKey,
  site: t.url,
});

describe("integration-url names what holds a bot name it cannot use", () => {
  const asHamlet = (): { email: string; key: string; site: string } => ({
    email: t.users.hamlet.email,
    key: t.users.hamlet.apiKey,
    site: t.url,
  });
  const createBot = async (as: typeof t.users.iago, shortName: string, botType: number) => {
    const res = await t.api.post("/api/v1/bots", {
      as,
      params: {
        full_name: `Bot ${shortName}`,
        short_name: shortName,
        bot_type: botType,
        ...(botType === 3 ? { payload_url: JSON.stringify("http://127.0.0.1:9/") } : {}),
      },
    });
    expect(res.status).toBe(200);
    return res.body.user_id as number;
  };

  it("a bot of yours of another type", async () => {
    await createBot(t.users.iago, "typed", 3);
    const attempt = integrationUrl(rc(), helloworld!, { stream: "deploys", bot: "typed" });
    await expect(attempt).rejects.toBeInstanceOf(BotNameTakenError);
    await expect(attempt).rejects.toThrow(
      "The bot typed-bot@zulip.com exists and is an outgoing-webhook bot, not an incoming-webhook bot; pass another --bot",
    );
  });

  it("another user's bot", async () => {
    await createBot(t.users.iago, "iagos", 2);
    await expect(
      integrationUrl(asHamlet(), helloworld!, { stream: "deploys", bot: "iagos" }),
    ).rejects.toThrow("iagos-bot@zulip.com is a bot owned by Iago; pass another --bot");
  });

  it("a deactivated bot", async () => {
    const id = await createBot(t.users.hamlet, "gone", 2);
    expect((await t.api.delete(`/api/v1/bots/${id}`, { as: t.users.hamlet })).status).toBe(200);
    await expect(integrationUrl(asHamlet(), helloworld!, { stream: "deploys", bot: "gone" })).rejects.toThrow(
      "gone-bot@zulip.com is a deactivated bot; reactivate it or pass another --bot",
    );
  });
});

describe("integration-url", () => {
  it("creates an incoming-webhook bot once, then reuses it, and its URL posts", async () => {
    if (helloworld === undefined) throw new Error("helloworld is not registered");
    const first = await integrationUrl(rc(), helloworld, { stream: "deploys", topic: "from the CLI" });
    const again = await integrationUrl(rc(), helloworld, { stream: "deploys", topic: "from the CLI" });
    expect({ created: first.created, email: first.botEmail }).toEqual({
      created: true,
      email: "helloworld-webhook-bot@zulip.com",
    });
    expect(again).toEqual({ ...first, created: false });
    expect(first.streamExists).toBe(true);
    const key = new URL(first.url).searchParams.get("api_key") ?? "";
    expect(first.url).toBe(
      `${t.url}/api/v1/external/helloworld?api_key=${key}&stream=deploys&topic=from+the+CLI`,
    );

    const bots = await t.api.get("/api/v1/bots", { as: t.users.iago });
    const bot = (bots.body.bots as { email: string; bot_type: number; api_key: string }[]).find(
      (b) => b.email === first.botEmail,
    );
    expect({ type: bot?.bot_type, key: bot?.api_key }).toEqual({ type: 2, key });

    const posted = await fetch(first.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        featured_title: "Ada Lovelace",
        featured_url: "https://en.wikipedia.org/wiki/Ada_Lovelace",
      }),
    });
    expect(posted.status).toBe(200);
    const res = await t.api.get("/api/v1/messages", {
      as: t.users.iago,
      params: {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: [["stream", "deploys"]],
        apply_markdown: false,
      },
    });
    const [m] = res.body.messages as { subject: string; sender_email: string }[];
    expect({ topic: m?.subject, sender: m?.sender_email }).toEqual({
      topic: "from the CLI",
      sender: "helloworld-webhook-bot@zulip.com",
    });
  });

  it("prints the URL with the integration's options and events", () => {
    const github = integrations.find((i) => i.name === "github");
    if (github === undefined) throw new Error("github is not registered");
    const text = integrationUrlText(
      integrationSummary(github),
      {
        url: "http://chat.example/api/v1/external/github?api_key=KEY&stream=dev",
        botEmail: "github-webhook-bot@chat.example",
        created: true,
        streamExists: true,
      },
      "http://chat.example",
    );
    const lines = text.split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "GitHub: paste this URL into the service's webhook settings",
      "(created the incoming-webhook bot github-webhook-bot@chat.example):",
      "",
      "  http://chat.example/api/v1/external/github?api_key=KEY&stream=dev",
      "",
      "Event header: X-GitHub-Event",
    ]);
    expect(lines).toContain("  branches: Only notify for pushes to these branches (comma-separated)");
    expect(lines.find((l) => l.startsWith("Events"))).toMatch(/: workflow_run, workflow_job, check_suite, /);
    expect(lines).toContain(
      "Signature: set the service's secret as the bot's config `github_secret` to have X-Hub-Signature-256 verified.",
    );
    expect(lines).toContain("Docs: http://chat.example/integrations/github");
  });

  it("runs from the command line, with --help", async () => {
    const help = await runProcess(["bin/chat-server.js", "integration-url", "--help"]);
    expect(help.code).toBe(0);
    expect(help.output).toContain("--stream");
    const run = await runProcess([
      "bin/chat-server.js",
      "integration-url",
      "uptimerobot",
      "--stream",
      "deploys",
      "--zuliprc",
      zuliprc,
    ]);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(
      new RegExp(
        `^ {2}${t.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/api/v1/external/uptimerobot\\?api_key=[A-Za-z0-9]{32}&stream=deploys$`,
        "m",
      ),
    );
    expect(run.output).toContain("(created the incoming-webhook bot uptimerobot-webhook-bot@zulip.com):");
    expect(run.output).not.toContain("Warning");
    const missing = await runProcess([
      "bin/chat-server.js",
      "integration-url",
      "uptimerobot",
      "--stream",
      "nowhere",
      "--zuliprc",
      zuliprc,
    ]);
    expect(missing.code).toBe(0);
    expect(missing.output).toContain(
      "Warning: the stream 'nowhere' does not exist: create it (or subscribe to it) before the service posts, or its messages are refused.",
    );
    const unknown = await runProcess([
      "bin/chat-server.js",
      "integration-url",
      "nosuch",
      "--stream",
      "x",
      "--zuliprc",
      zuliprc,
    ]);
    expect({ code: unknown.code, output: unknown.output.trim() }).toEqual({
      code: 1,
      output: "Unknown integration 'nosuch' (npx chat-server integrations lists them)",
    });
    // Three real processes, each loading the CLI through tsx: slow on a loaded machine.
  }, 90_000);
});
