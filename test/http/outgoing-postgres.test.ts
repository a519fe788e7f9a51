/** The outgoing-webhook jobs and bot storage on PostgreSQL (skipped where no PostgreSQL runs). */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const pgUp = await postgresAvailable();

(pgUp ? describe : describe.skip)("outgoing webhooks and bot storage on PostgreSQL", () => {
  let t: TestServer;
  let drop: () => Promise<void>;
  let endpoint: http.Server;
  let answer = '{"content": "beep boop"}';
  const received: string[] = [];
  const clock = new ManualClock();

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    t = await startTestServer({
      clock,
      config: {
        databaseUrl: schema.url,
        outgoingWebhooks: {
          ...defaultConfig().outgoingWebhooks,
          pollIntervalMs: 0,
          maxAttempts: 4,
          retryScheduleMs: [1000, 2000, 4000],
          retryJitter: 0,
        },
      },
    });
    endpoint = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push(body);
        res.end(answer);
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", () => resolve()));
  });
  afterAll(async () => {
    await t.close();
    endpoint.closeAllConnections();
    endpoint.close();
    await drop();
  });

  it("delivers a private message, answers a bad reply with a failure without retrying, and keeps storage", async () => {
    const { users, messages, outgoing, botStorage } = t.running.services;
    const iago = (await users.byId(t.users.iago.id))!;
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`;
    const { bot } = await users.createBot(iago, {
      fullName: "PG Bot",
      shortName: "pg",
      botType: 3,
      payloadUrl: url,
    });
    const id = await messages.send(iago, { type: "private", to: [bot.email], content: "hello pg" });
    await outgoing.idle();
    expect(received.map((b) => (JSON.parse(b) as { data: string }).data)).toEqual(["hello pg"]);
    const reply = await t.running.db.get<{ sender_id: number | string; content: string }>(
      "SELECT sender_id, content FROM messages WHERE id > ? ORDER BY id LIMIT 1",
      [id],
    );
    expect([Number(reply?.sender_id), reply?.content]).toEqual([bot.id, "beep boop"]);
    expect(await outgoing.jobs()).toEqual([]);

    // An answer that is not JSON: Zulip's failure in the conversation, the job is done (no retry).
    answer = "not json";
    const again = await messages.send(iago, { type: "private", to: [bot.email], content: "again" });
    await outgoing.idle();
    const failure = await t.running.db.get<{ content: string }>(
      "SELECT content FROM messages WHERE id > ? ORDER BY id LIMIT 1",
      [again],
    );
    expect(failure?.content).toBe("Failure! Invalid JSON in response");
    expect(await outgoing.jobs()).toEqual([]);

    await botStorage.put(bot.id, { a: "1", b: "2" });
    await botStorage.put(bot.id, { a: "3" });
    expect(await botStorage.get(bot.id)).toEqual({ a: "3", b: "2" });
    await expect(botStorage.put(bot.id, { c: "x".repeat(10_000_000) })).rejects.toThrow(
      "Request exceeds storage limit by 5 characters. The limit is 10000000 characters.",
    );
    await expect(botStorage.remove(bot.id, ["a", "zzz"])).rejects.toThrow("Key does not exist.");
    await botStorage.remove(bot.id, ["a"]);
    expect(await botStorage.get(bot.id)).toEqual({ b: "2" });
  });

  it("schedules retries on PostgreSQL", async () => {
    const { users, messages, outgoing } = t.running.services;
    const iago = (await users.byId(t.users.iago.id))!;
    const { bot } = await users.createBot(iago, {
      fullName: "Down Bot",
      shortName: "down",
      botType: 3,
      payloadUrl: "http://127.0.0.1:1/",
    });
    await messages.send(iago, { type: "private", to: [bot.email], content: "anyone?" });
    await outgoing.idle();
    const start = clock.now();
    expect((await outgoing.jobs()).map((j) => [j.status, j.attempts, j.nextAttemptAtMs - start])).toEqual([
      ["pending", 1, 1000],
    ]);
    clock.advance(1000);
    expect(await outgoing.tick()).toBe(1);
    expect((await outgoing.jobs()).map((j) => [j.status, j.attempts, j.nextAttemptAtMs - start])).toEqual([
      ["pending", 2, 3000],
    ]);
  });
});
