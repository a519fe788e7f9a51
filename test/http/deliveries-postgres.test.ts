/** The delivery log on PostgreSQL (migration 020, writes, paging, pruning, replay); skipped where none runs. */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const pgUp = await postgresAvailable();

(pgUp ? describe : describe.skip)("the delivery log on PostgreSQL", () => {
  let t: TestServer;
  let drop: () => Promise<void>;
  const clock = new ManualClock();

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    t = await startTestServer({ clock, config: { databaseUrl: schema.url, deliveryLog: { maxPerBot: 2 } } });
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  const hook = (stream: string) =>
    fetch(`${t.url}/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}&stream=${stream}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"featured_title":"T","featured_url":"https://example.com/","token":"tok-1"}',
    });

  it("logs, pages, prunes to the newest entries and replays", async () => {
    for (const stream of ["a", "b", "c"]) expect((await hook(stream)).status).toBe(200);
    const res = await t.api.get(`/api/v1/bots/${t.users.webhookBot.id}/deliveries`, { as: t.users.iago });
    const list = res.body.deliveries as {
      id: number;
      outcome: string;
      request: { url: string; body: string };
    }[];
    expect(list.map((d) => [d.outcome, d.request.url])).toEqual([
      ["failed", "/api/v1/external/helloworld?stream=c"],
      ["failed", "/api/v1/external/helloworld?stream=b"],
    ]);
    expect(list[0]!.request.body).toBe(
      '{"featured_title":"T","featured_url":"https://example.com/","token":"[redacted]"}',
    );
    const replay = await t.api.post(
      `/api/v1/bots/${t.users.webhookBot.id}/deliveries/${list[0]!.id}/replay`,
      {
        as: t.users.iago,
      },
    );
    expect(replay.status).toBe(200);
    expect(replay.body.delivery.replay_of).toBe(list[0]!.id);
    expect(replay.body.delivery.outcome).toBe("failed");
  });
});
