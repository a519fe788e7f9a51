/**
 * Defect 5 (issue 11): with umask 022 the data dir was 0755 and the SQLite files 0644 (API keys,
 * password hashes), and a botserverrc written by shell redirection too.
 * Defect 6: a first start on a busy port created the organization and zuliprc, printed
 * EADDRINUSE and never showed the owner's password; the next start kept a zuliprc naming the old port.
 * Both with real processes started under umask 022.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

interface Proc {
  output(): string;
  waitFor(re: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  kill(): void;
}

const procs: Proc[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill();
    await p.exited;
  }
});

/** `node bin/chat-server.js ARGS` under umask 022. */
function chatServer(args: string[]): Proc {
  const child = spawn(
    "sh",
    ["-c", 'umask 022 && exec "$0" "$@"', process.execPath, "bin/chat-server.js", ...args],
    {
      stdio: "pipe",
    },
  );
  let out = "";
  const waiters: (() => void)[] = [];
  const onData = (d: Buffer): void => {
    out += d.toString("utf8");
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  void exited.then(() => {
    for (const w of waiters.splice(0)) w();
  });
  const p: Proc = {
    output: () => out,
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const m = out.match(re);
          if (m) resolve(m);
          else if (child.exitCode !== null) reject(new Error(`exited before ${String(re)}:\n${out}`));
          else waiters.push(check);
        };
        check();
      }),
  };
  procs.push(p);
  return p;
}

const mode = (file: string): string => (fs.statSync(file).mode & 0o777).toString(8);

function tmpDir(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rel-files-")), "data");
}

describe("defect 6: a first start on a busy port", () => {
  it("fails before creating anything, and the next start shows the password and the right site", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const busyPort = (blocker.address() as net.AddressInfo).port;
    const dataDir = tmpDir();

    const first = chatServer([
      "serve",
      "--port",
      String(busyPort),
      "--data-dir",
      dataDir,
      "--log-level",
      "warn",
    ]);
    expect(await first.exited).toBe(1);
    expect(first.output()).toContain("EADDRINUSE");
    expect(first.output()).not.toContain("Created the organization");
    expect(fs.existsSync(path.join(dataDir, "zuliprc"))).toBe(false);
    blocker.close();

    const second = chatServer(["serve", "--port", "0", "--data-dir", dataDir, "--log-level", "warn"]);
    const [, url] = await second.waitFor(/listening on (http:\/\/\S+)/);
    expect(second.output()).toMatch(/Owner password \(shown once\): \S+/);
    expect(fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8")).toContain(`\nsite=${url}\n`);
  }, 120_000);
});

describe("defect 5: secrets at rest are not world-readable, whatever the umask", () => {
  it("makes the data dir 0700 and the store, WAL, shared memory and zuliprc 0600; --output writes 0600", async () => {
    const dataDir = tmpDir();
    // create-bot's default payload URL is a bot server on this machine: allowed, as the README says.
    const server = chatServer([
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--log-level",
      "warn",
      "--outgoing-webhook-allow",
      "127.0.0.1:5002",
    ]);
    await server.waitFor(/listening on (http:\/\/\S+)/);
    const files = ["chat.sqlite3", "chat.sqlite3-wal", "chat.sqlite3-shm", "zuliprc"];
    expect([mode(dataDir), ...files.map((f) => mode(path.join(dataDir, f)))]).toEqual([
      "700",
      "600",
      "600",
      "600",
      "600",
    ]);

    const rc = path.join(path.dirname(dataDir), "botserverrc");
    const create = chatServer([
      "create-bot",
      "--name",
      "helloworld",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
      "--output",
      rc,
    ]);
    expect(await create.exited).toBe(0);
    expect(mode(rc)).toBe("600");
    expect(fs.readFileSync(rc, "utf8")).toMatch(
      /^\[helloworld\]\nemail=helloworld-bot@example\.com\nkey=\w{32}\n/,
    );

    const again = chatServer(["botserverrc", "--zuliprc", path.join(dataDir, "zuliprc"), "--output", rc]);
    expect(await again.exited).toBe(0);
    expect(mode(rc)).toBe("600");
  }, 120_000);
});
