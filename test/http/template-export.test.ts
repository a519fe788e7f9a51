/**
 * A template bot's saved templates exported as an integration module (issue 28): the export API
 * and `chat-server export-template`'s tool write a folder that `test-integration` checks against
 * fixtures from the bot's logged deliveries, and that `--integrations-path` loads and posts
 * through. Real listening servers.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { integrations } from "../../integrations/index.js";
import { exportTemplate } from "../../src/tools/export-template.js";
import { loadExternalIntegrations } from "../../src/tools/external-integrations.js";
import { testIntegration } from "../../src/tools/integration-scaffold.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
let loaded: TestServer | undefined;
let dir: string;
let bot: { id: number; apiKey: string };

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "template-export-"));
  t = await startTestServer();
  await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name: "ops" }] },
  });
  const created = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: {
      full_name: "Deploy notices",
      short_name: "deploys",
      bot_type: 2,
      config_data: {
        template_event_header: "X-Deploy-Event",
        template_topic: "deploys",
        template_body: "{{ payload.app }} deployed",
        "template_body.failed": ":x: {{ payload.app }} failed: {{ payload.reason | markdown_escape }}",
      },
    },
  });
  expect(created.status).toBe(200);
  bot = { id: created.body.user_id as number, apiKey: created.body.api_key as string };
});
afterEach(async () => {
  await loaded?.close();
  loaded = undefined;
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function deliver(
  server: TestServer,
  integration: string,
  apiKey: string,
  event: string | undefined,
  body: unknown,
) {
  const res = await fetch(`${server.url}/api/v1/external/${integration}?api_key=${apiKey}&stream=ops`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(event === undefined ? {} : { "x-deploy-event": event }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const OK = { status: 200, body: { result: "success", msg: "" } };

describe("exporting a template bot as an integration module", () => {
  it("writes a module that test-integration passes and --integrations-path loads and posts through", async () => {
    expect(await deliver(t, "template", bot.apiKey, "succeeded", { app: "billing" })).toEqual(OK);
    expect(
      await deliver(t, "template", bot.apiKey, "failed", { app: "search", reason: "disk_full" }),
    ).toEqual(OK);

    const folder = await exportTemplate(
      { site: t.url, email: t.users.iago.email, key: t.users.iago.apiKey },
      { bot: "deploys", name: "deploy_notices", dir, num: 20 },
    );
    expect(folder).toBe(path.join(dir, "deploy_notices"));
    const entries = (await logIds()).map(String);
    expect(fs.readdirSync(path.join(folder, "fixtures")).sort()).toEqual(
      [`failed__delivery_${entries[0]}.json`, "expected", `succeeded__delivery_${entries[1]}.json`].sort(),
    );
    expect(
      JSON.parse(
        fs.readFileSync(
          path.join(folder, "fixtures", "expected", `failed__delivery_${entries[0]}.json`),
          "utf8",
        ),
      ),
    ).toEqual({ topic: "deploys", body: ":x: search failed: disk\\_full" });
    expect(fs.existsSync(path.join(folder, "doc.md"))).toBe(true);
    expect(fs.existsSync(path.join(folder, "test.mjs"))).toBe(true);

    // test-integration: every fixture comes out as expected.
    const runs = await testIntegration(folder);
    expect(runs.map((r) => [r.fixture, r.ok])).toEqual([
      [`failed__delivery_${entries[0]}`, true],
      [`succeeded__delivery_${entries[1]}`, true],
    ]);

    // Loaded by a server as an integration of its own, it posts as the template bot did.
    loaded = await startTestServer({
      config: { externalIntegrations: await loadExternalIntegrations([folder], integrations) },
    });
    await loaded.api.post("/api/v1/users/me/subscriptions", {
      as: loaded.users.iago,
      params: { subscriptions: [{ name: "ops" }] },
    });
    const key = loaded.users.webhookBot.apiKey;
    expect(await deliver(loaded, "deploy_notices", key, "failed", { app: "auth", reason: "oom" })).toEqual(
      OK,
    );
    expect(await deliver(loaded, "deploy_notices", key, undefined, { app: "web" })).toEqual(OK);
    const res = await loaded.api.get("/api/v1/messages", {
      as: loaded.users.iago,
      params: {
        anchor: "oldest",
        num_before: 0,
        num_after: 10,
        apply_markdown: false,
        narrow: [{ operator: "stream", operand: "ops" }],
      },
    });
    expect(
      (res.body.messages as { subject: string; content: string }[]).map((m) => [m.subject, m.content]),
    ).toEqual([
      ["deploys", ":x: auth failed: oom"],
      ["deploys", "web deployed"],
    ]);
    const listed = await loaded.api.get("/api/v1/integrations");
    expect(
      (listed.body.integrations as { name: string; display_name: string }[]).find(
        (i) => i.name === "deploy_notices",
      ),
    ).toEqual(expect.objectContaining({ name: "deploy_notices", display_name: "Deploy Notices" }));
  });

  it("answers clear errors: a bad name, another user's bot", async () => {
    const bad = await t.api.post(`/api/v1/bots/${bot.id}/export_integration`, {
      as: t.users.iago,
      params: { name: "Deploy Notices" },
    });
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "An integration's name is lower-case letters, digits and _: 'Deploy Notices' is not",
        code: "BAD_REQUEST",
      },
    });
    const other = await t.api.post(`/api/v1/bots/${bot.id}/export_integration`, {
      as: t.users.hamlet,
      params: { name: "deploy_notices" },
    });
    expect({ status: other.status, body: other.body }).toEqual({
      status: 403,
      body: { result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" },
    });
  });
});

/** The bot's logged deliveries, newest first. */
async function logIds(): Promise<number[]> {
  const res = await t.api.get(`/api/v1/bots/${bot.id}/deliveries`, { as: t.users.iago });
  return (res.body.deliveries as { id: number }[]).map((d) => d.id);
}
