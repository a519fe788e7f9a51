/**
 * An integration written outside the repository (issue 28), as a new author goes: `new-integration`
 * writes it in a folder of their own, `test-integration` runs its fixture (and fails on a changed
 * expectation), `serve --integrations-path` loads it — listed, documented and posting through the
 * real endpoint — and a broken one stops start-up with a message naming it. Real processes.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuthHeader } from "../helpers/client.js";
import { runProcess, startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";

const outside = fs.mkdtempSync(path.join(os.tmpdir(), "own-integrations-"));
const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) await p.stop();
  fs.rmSync(outside, { recursive: true, force: true });
});

describe("an integration of your own, from new-integration to a message in a stream", () => {
  const folder = path.join(outside, "acme_tracker");

  it("writes a skeleton whose fixture passes test-integration, and fails when it no longer matches", async () => {
    const made = await runProcess([
      "bin/chat-server.js",
      "new-integration",
      "acme_tracker",
      "--dir",
      outside,
    ]);
    expect(made.code).toBe(0);
    expect(made.output).toContain(`Wrote the integration acme_tracker in ${folder}.`);
    expect(fs.readdirSync(folder).sort()).toEqual(["doc.md", "fixtures", "index.mjs"]);

    const passed = await runProcess(["bin/chat-server.js", "test-integration", folder]);
    expect({ code: passed.code, output: passed.output.trim() }).toEqual({
      code: 0,
      output: "ok   acme_tracker: default\n1 of 1 fixtures as expected.",
    });

    const expectedFile = path.join(folder, "fixtures", "expected", "default.json");
    const original = fs.readFileSync(expectedFile, "utf8");
    fs.writeFileSync(expectedFile, JSON.stringify({ topic: "Website", body: "something else" }));
    const failed = await runProcess(["bin/chat-server.js", "test-integration", folder]);
    fs.writeFileSync(expectedFile, original);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain("FAIL acme_tracker: default");
    expect(failed.output).toContain("expected topic: Website\n      body:  something else");
    expect(failed.output).toContain("actual   topic: Website\n      body:  **Ada** opened [Fix the footer]");
  }, 120_000);

  it("is loaded by serve --integrations-path: listed, documented, and posting", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "own-integrations-data-"));
    const server = startProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--integrations-path",
      folder,
    ]);
    running.push(server);
    const [, url] = await server.waitFor(/listening on (http:\/\/\S+)/, 60_000);
    expect(server.output()).toContain(`Loaded the integration acme_tracker (Acme Tracker) from ${folder}`);
    const text = fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8");
    const owner = {
      email: /^email=(.*)$/m.exec(text)?.[1] ?? "",
      apiKey: /^key=(.*)$/m.exec(text)?.[1] ?? "",
    };
    const as = { authorization: basicAuthHeader(owner) };
    const form = { ...as, "content-type": "application/x-www-form-urlencoded" };

    const list = (await (await fetch(`${url}/api/v1/integrations`)).json()) as {
      integrations: { name: string }[];
    };
    expect(list.integrations.map((i) => i.name)).toContain("acme_tracker");
    const doc = (await (await fetch(`${url}/api/v1/integrations/acme_tracker`, { headers: as })).json()) as {
      fixtures: string[];
    };
    expect(doc.fixtures).toEqual(["default"]);

    await fetch(`${url}/api/v1/users/me/subscriptions`, {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: "projects" }]) }).toString(),
    });
    // As docs/writing-integrations.md: integration-url finds it on the running server and makes the bot.
    const made = await runProcess([
      "bin/chat-server.js",
      "integration-url",
      "acme_tracker",
      "--stream",
      "projects",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
    ]);
    expect(made.code).toBe(0);
    expect(made.output).toContain("Acme Tracker: paste this URL into the service's webhook settings");
    const hook =
      /^ {2}(http:\/\/\S+\/api\/v1\/external\/acme_tracker\?api_key=\w{32}&stream=projects)$/m.exec(
        made.output,
      )?.[1];
    expect(hook).toBeDefined();
    const posted = await fetch(hook!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: fs.readFileSync(path.join(folder, "fixtures", "default.json")),
    });
    expect(posted.status).toBe(200);
    const messages = (await (
      await fetch(
        `${url}/api/v1/messages?anchor=newest&num_before=1&num_after=0&apply_markdown=false&narrow=${encodeURIComponent(JSON.stringify([{ operator: "stream", operand: "projects" }]))}`,
        { headers: as },
      )
    ).json()) as { messages: { subject: string; content: string }[] };
    expect(messages.messages.map((m) => [m.subject, m.content])).toEqual([
      ["Website", "**Ada** opened [Fix the footer](https://example.com/issues/1)"],
    ]);

    // send-webhook-fixture finds its fixture in the folder and sends it as the integration's bot.
    const fixture = (stream: string) =>
      runProcess([
        "bin/chat-server.js",
        "send-webhook-fixture",
        "--integration",
        "acme_tracker",
        "--fixture",
        "default",
        "--stream",
        stream,
        "--zuliprc",
        path.join(dataDir, "zuliprc"),
        "--integrations-path",
        folder,
      ]);
    const sent = await fixture("projects");
    expect(sent.code).toBe(0);
    expect(sent.output).toContain("As acme-tracker-webhook-bot@");
    expect(sent.output).not.toContain("(created now)");
    expect(sent.output).toContain('200 {"result":"success","msg":""}');
    const newest = (await (
      await fetch(
        `${url}/api/v1/messages?anchor=newest&num_before=1&num_after=0&apply_markdown=false&narrow=${encodeURIComponent(JSON.stringify([{ operator: "stream", operand: "projects" }]))}`,
        { headers: as },
      )
    ).json()) as { messages: { id: number; sender_email: string; subject: string }[] };
    expect(newest.messages.map((m) => [m.sender_email.split("@")[0], m.subject])).toEqual([
      ["acme-tracker-webhook-bot", "Website"],
    ]);
    // A stream that does not exist: nothing is posted, and the command says so and fails.
    const missing = await fixture("nowhere");
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("Stream 'nowhere' does not exist, so nothing was posted");
  }, 120_000);

  it("stops start-up with a message naming a broken integration", async () => {
    const broken = path.join(outside, "broken");
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, "index.mjs"), 'export default { name: "Not A Slug", events: {} };\n');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "own-integrations-broken-"));
    const run = await runProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--integrations-path",
      broken,
    ]);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`Integration module ${broken}: Integration name 'Not A Slug' must match`);
  }, 120_000);
});
