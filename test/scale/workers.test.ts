/**
 * `chat-server serve --workers N`: refused without PostgreSQL and Redis, with a message saying so;
 * with them, N processes on one port answer, and SIGTERM stops them all.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { runProcess, startProcess } from "../helpers/process.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { Redis } from "ioredis";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());
if (!servicesUp) process.stdout.write("SKIPPED serve --workers on PostgreSQL + Redis: not running\n");

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => resolve()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "workers-"));
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("serve --workers", () => {
  it("refuses more than one worker on SQLite or without Redis, saying what is missing", async () => {
    const sqlite = await runProcess(["bin/chat-server.js", "serve", "--workers", "2", "--data-dir", dataDir]);
    expect(sqlite.code).toBe(1);
    expect(sqlite.output).toContain(
      "--workers 2 needs PostgreSQL (--database postgres://…) and Redis (--redis redis://…): with SQLite and in-process event queues only one process can serve (see docs/deploy.md)",
    );
    const noRedis = await runProcess([
      "bin/chat-server.js",
      "serve",
      "--workers",
      "3",
      "--database",
      "postgres://postgres@127.0.0.1:5432/test",
    ]);
    expect(noRedis.code).toBe(1);
    expect(noRedis.output).toContain("--workers 3 needs Redis (--redis redis://…)");
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 30_000);

  (servicesUp ? it : it.skip)(
    "runs two workers on one port on PostgreSQL + Redis and stops them on SIGTERM",
    async () => {
      const schema = await freshPostgresSchema();
      const prefix = freshRedisPrefix();
      const port = await freePort();
      const p = startProcess([
        "bin/chat-server.js",
        "serve",
        "--workers",
        "2",
        "--port",
        String(port),
        "--data-dir",
        dataDir,
        "--database",
        schema.url,
        "--redis",
        REDIS_URL,
        "--redis-prefix",
        prefix,
        "--log-level",
        "warn",
      ]);
      try {
        await p.waitFor(/Chat server: 2 workers serving http:\/\/127\.0\.0\.1:\d+/, 90_000);
        expect(p.output().match(/Chat server listening on/g)?.length).toBe(2);
        expect(p.output().match(/Created the organization/g)?.length).toBe(1);
        // The workers run with the young generation `npm start` gives one process (src/lib/young-generation.ts).
        const primary = p.child.pid!;
        const workerPids = fs
          .readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8")
          .trim()
          .split(/\s+/);
        expect(workerPids).toHaveLength(2);
        for (const pid of workerPids) {
          expect(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toContain(
            "--max-semi-space-size=64",
          );
        }
        const ready = await fetch(`http://127.0.0.1:${port}/ready`);
        expect([ready.status, await ready.json()]).toEqual([
          200,
          { result: "success", msg: "", status: "ready", database: "ok", redis: "ok" },
        ]);
        expect(await p.stop("SIGTERM")).toBe(0);
      } finally {
        await p.stop("SIGKILL");
        await schema.drop();
        const redis = new Redis(REDIS_URL);
        await dropRedisPrefix(redis, prefix);
        redis.disconnect();
      }
    },
    120_000,
  );
});
