import { afterEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuthHeader } from "../helpers/client.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { runProcess, startProcess, startShell } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";

const running: RunningProcess[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop();
});

function serve(dataDir: string): RunningProcess {
  const p = startProcess([
    "bin/chat-server.js",
    "serve",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--log-level",
    "warn",
  ]);
  running.push(p);
  return p;
}

function readZuliprc(file: string): { email: string; key: string; site: string } {
  const text = fs.readFileSync(file, "utf8");
  const get = (k: string): string => new RegExp(`^${k}=(.*)$`, "m").exec(text)?.[1] ?? "";
  expect(text.startsWith("[api]\n")).toBe(true);
  return { email: get("email"), key: get("key"), site: get("site") };
}

describe("chat-server serve", () => {
  it("creates the organization, writes a 0600 zuliprc that authenticates, and keeps data across restarts", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chat-serve-"));
    const first = serve(dataDir);
    const [, url] = await first.waitFor(/listening on (http:\/\/\S+)/);
    expect(first.output()).toContain("Created the organization");
    expect(first.output()).toMatch(/Owner password \(shown once\): \S+/);
    const zuliprc = path.join(dataDir, "zuliprc");
    expect(fs.statSync(zuliprc).mode & 0o777).toBe(0o600);
    const rc = readZuliprc(zuliprc);
    expect(rc.email).toBe("owner@example.com");
    const me = await fetch(`${url}/api/v1/users/me`, {
      headers: { authorization: basicAuthHeader({ email: rc.email, apiKey: rc.key }) },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { is_owner: boolean }).is_owner).toBe(true);
    const bot = await fetch(`${url}/api/v1/bots`, {
      method: "POST",
      headers: {
        authorization: basicAuthHeader({ email: rc.email, apiKey: rc.key }),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        full_name: "Persistent Bot",
        short_name: "persistent",
        bot_type: "2",
      }).toString(),
    });
    const created = (await bot.json()) as { api_key: string; email: string };
    // Killed right after the acknowledged write: nothing may be lost.
    await first.stop("SIGKILL");

    const second = serve(dataDir);
    const [, url2] = await second.waitFor(/listening on (http:\/\/\S+)/);
    expect(second.output()).not.toContain("Created the organization");
    const again = await fetch(`${url2}/api/v1/bots`, {
      headers: { authorization: basicAuthHeader({ email: rc.email, apiKey: rc.key }) },
    });
    const bots = (await again.json()) as { bots: { username: string; api_key: string }[] };
    expect(bots.bots.map((b) => [b.username, b.api_key])).toEqual([[created.email, created.api_key]]);
  });

  it("keeps its store in PostgreSQL with --database, writing the zuliprc to a new data dir", async () => {
    if (!(await postgresAvailable())) {
      console.warn("PostgreSQL is not reachable: skipping the serve --database test");
      return;
    }
    const schema = await freshPostgresSchema();
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "chat-serve-pg-")), "not-yet");
    try {
      const p = startProcess([
        "bin/chat-server.js",
        "serve",
        "--port",
        "0",
        "--data-dir",
        dataDir,
        "--database",
        schema.url,
        "--log-level",
        "warn",
      ]);
      running.push(p);
      const [, url] = await p.waitFor(/listening on (http:\/\/\S+)/);
      const rc = readZuliprc(path.join(dataDir, "zuliprc"));
      const me = await fetch(`${url}/api/v1/users/me`, {
        headers: { authorization: basicAuthHeader({ email: rc.email, apiKey: rc.key }) },
      });
      expect(me.status).toBe(200);
      await p.stop();
    } finally {
      await schema.drop();
    }
  });

  it("prints help", async () => {
    const { code, output } = await runProcess(["bin/chat-server.js", "serve", "--help"]);
    expect(code).toBe(0);
    expect(output).toContain("--data-dir");
    expect(output).toContain("--database");
  });

  it("--version names this package's version, also when run inside another project", async () => {
    const ours = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }).version;
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "other-project-"));
    fs.writeFileSync(path.join(elsewhere, "package.json"), '{"name":"other","version":"9.9.9"}');
    try {
      for (const bin of ["bin/chat-server.js", "bin/botserver.js"]) {
        const p = startShell(`"${process.execPath}" "${path.resolve(bin)}" --version`, elsewhere);
        expect({ bin, code: await p.stop("SIGCONT"), output: p.output() }).toEqual({
          bin,
          code: 0,
          output: `${ours}\n`,
        });
      }
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("names every command --help lists when none is given", async () => {
    const help = await runProcess(["bin/chat-server.js", "--help"]);
    const listed = [...help.output.matchAll(/^ {2}chat-server ([a-z-]+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThanOrEqual(10);
    const bare = await runProcess(["bin/chat-server.js"]);
    expect(bare.code).toBe(1);
    const named = /^Name a command: (.*)$/m.exec(bare.output)?.[1]?.split(", ");
    expect(named).toEqual(listed);
  });

  it("refuses a number option given something else, naming it", async () => {
    const { code, output } = await runProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--outgoing-webhook-timeout",
      "ten",
    ]);
    expect({ code, output }).toEqual({ code: 1, output: "--outgoing-webhook-timeout takes a number\n" });
  });

  it.each([
    [["--outgoing-webhook-timeout", "-5"], "--outgoing-webhook-timeout takes a number of 0 or more, not -5"],
    [["--port", "70000"], "--port takes a whole number from 0 to 65535, not 70000"],
    [
      ["--outgoing-webhook-retry-jitter", "1.5"],
      "--outgoing-webhook-retry-jitter takes a number from 0 to 1, not 1.5",
    ],
    [["--workers", "0"], "--workers takes a whole number of 1 or more, not 0"],
    [
      ["--outgoing-webhook-max-attempts", "2.5"],
      "--outgoing-webhook-max-attempts takes a whole number of 1 or more, not 2.5",
    ],
  ])("refuses a number out of its option's range: %j", async (option, message) => {
    const { code, output } = await runProcess(["bin/chat-server.js", "serve", ...option]);
    expect({ code, output }).toEqual({ code: 1, output: `${message}\n` });
  });

  it("fails clearly on an unusable database URL", async () => {
    const { code, output } = await runProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--database",
      "mysql://x",
    ]);
    expect(code).toBe(1);
    expect(output).toContain("Unsupported database URL 'mysql://x'");
  });
});
