/**
 * Outgoing-webhook jobs claimed by exactly one process: two connections (two processes' pools)
 * claim due jobs at the same time and never take the same one; a claimed job comes back only
 * after its lease, as when the claiming process was killed. SQLite always; PostgreSQL where it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { Db } from "../../src/store/db.js";
import { openStore } from "../../src/store/open-store.js";
import { OutgoingRepo } from "../../src/store/outgoing-repo.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const pgUp = await postgresAvailable();
if (!pgUp) process.stdout.write("SKIPPED job claims on PostgreSQL: no PostgreSQL at 127.0.0.1:5432\n");

const T0 = Date.UTC(2026, 0, 1);

describe.each(pgUp ? ["sqlite", "postgres"] : ["sqlite"])("outgoing job claims on %s", (dialect) => {
  let t: TestServer;
  let other: Db;
  let drop: (() => Promise<void>) | undefined;
  let jobIds: number[] = [];

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (dialect === "postgres") {
      const schema = await freshPostgresSchema();
      databaseUrl = schema.url;
      drop = schema.drop;
    }
    t = await startTestServer({
      clock: new ManualClock(T0),
      // This server's own worker stays still: the test is the only claimer.
      config: {
        outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0 },
        ...(databaseUrl === undefined ? {} : { databaseUrl }),
      },
    });
    // The second "process": its own connection pool (SQLite in memory cannot be shared: same Db).
    other = databaseUrl === undefined ? t.running.db : await openStore({ databaseUrl });
    const { users } = t.running.services;
    const iago = (await users.byId(t.users.iago.id))!;
    const { bot } = await users.createBot(iago, {
      fullName: "Claim Bot",
      shortName: "claim",
      botType: 3,
      payloadUrl: "http://127.0.0.1:9/",
    });
    const [service] = await users.servicesOf(bot.id);
    const repo = new OutgoingRepo(t.running.db);
    jobIds = [];
    for (let i = 0; i < 40; i++) {
      const job = await repo.insert(
        { botId: bot.id, serviceId: service!.id, messageId: i + 1, payload: "{}" },
        T0,
        T0, // written with its first attempt's lease already over: due now
      );
      jobIds.push(job.id);
    }
  });

  afterAll(async () => {
    if (other !== t.running.db) await other.close();
    await t.close();
    await drop?.();
  });

  it("gives every due job to exactly one of two processes claiming at once", async () => {
    const mine = new OutgoingRepo(t.running.db);
    const theirs = new OutgoingRepo(other);
    const lease = T0 + 15_000;
    const taken: number[][] = [[], []];
    for (let round = 0; round < 8; round++) {
      const [x, y] = await Promise.all([mine.claimDue(T0, lease, 3, 10), theirs.claimDue(T0, lease, 3, 10)]);
      taken[0]!.push(...x.map((j) => j.id));
      taken[1]!.push(...y.map((j) => j.id));
    }
    const all = [...taken[0]!, ...taken[1]!].sort((p, q) => p - q);
    expect(all).toEqual(jobIds);
    expect(new Set(all).size).toBe(40);
    // Nothing is due again while the leases run: the claiming processes are alive.
    expect(await mine.claimDue(T0 + 14_999, T0 + 30_000, 100, 10)).toEqual([]);
  });

  it("hands a job back to another process once the lease of a killed claimer has passed", async () => {
    const theirs = new OutgoingRepo(other);
    const again = await theirs.claimDue(T0 + 15_000, T0 + 30_000, 100, 10);
    expect(again.map((j) => j.id)).toEqual(jobIds);
    expect(again.map((j) => j.attempts)).toEqual(jobIds.map(() => 3));
  });
});
