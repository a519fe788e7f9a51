/**
 * What a restart must not forget, with a file-backed store (SQLite files in a data directory): an
 * endpoint's circuit left open, an endpoint disabled by 410 and its dead deliveries, and a bot's
 * rotated credentials in their overlap (the old API key still authenticates, and its use is still
 * marked in the delivery log's own file).
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { ServerConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import type { RunningServer } from "../../src/server.js";
import { apiClient } from "../helpers/client.js";
import type { Credentials } from "../helpers/client.js";
import { LOOPBACK_ALLOW } from "../helpers/test-server.js";

/** The ManualClock's start, 2026-01-01T00:00:00Z, in Unix seconds. */
const T0 = 1767225600;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bot endpoint that answers every request with `status` and counts what it received. */
async function endpoint(status: number): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: string }).data);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status === 200 ? '{"response_not_required": true}' : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

describe("a restart with a file-backed store", () => {
  it("keeps an open circuit, a disabled endpoint, dead deliveries and credentials in their overlap", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outgoing-restart-"));
    cleanups.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const clock = new ManualClock();
    const config: ServerConfig = defaultConfig({
      port: 0,
      dataDir,
      ownerEmail: "iago@zulip.com",
      ownerName: "Iago",
      realmStringId: "zulip",
      botDomain: "zulip.com",
      rateLimit: null,
      logLevel: "silent",
      outgoingWebhookAllow: LOOPBACK_ALLOW,
      outgoingWebhooks: {
        ...defaultConfig().outgoingWebhooks,
        pollIntervalMs: 0,
        maxAttempts: 3,
        retryScheduleMs: [1000],
        retryJitter: 0,
        circuitBreakerThreshold: 2,
        circuitProbeIntervalMs: 30_000,
        deadNoticeWindowMs: 60_000,
      },
    });
    let running: RunningServer = await startServer(config, {
      clock,
      logger: silentLogger,
      ownerPassword: "pw",
    });
    // Closes whichever server runs when the test ends (the one after the restart, if it got there).
    cleanups.push(() => running.close());
    const owner = running.firstStart!.owner;
    const iago: Credentials = { email: owner.email, apiKey: owner.apiKey };
    const failing = await endpoint(500);
    const gone = await endpoint(410);
    const api = () => apiClient(running.url);
    const createBot = async (shortName: string, url: string) => {
      const res = await api().post("/api/v1/bots", {
        as: iago,
        params: {
          full_name: `${shortName} bot`,
          short_name: shortName,
          bot_type: 3,
          payload_url: JSON.stringify(url),
          interface_type: 1,
        },
      });
      expect(res.status).toBe(200);
      return {
        id: res.body.user_id as number,
        email: res.body.email as string,
        apiKey: res.body.api_key as string,
      };
    };
    const breaker = await createBot("breaker", failing.url);
    const goner = await createBot("goner", gone.url);
    const dm = async (to: string, content: string) => {
      const res = await api().post("/api/v1/messages", {
        as: iago,
        params: { type: "private", to: JSON.stringify([to]), content },
      });
      expect(res.status).toBe(200);
      await running.services.outgoing.idle();
    };

    // The breaker's endpoint fails twice: its circuit opens; a third message waits, pending.
    await dm(breaker.email, "one");
    await dm(breaker.email, "two");
    await dm(breaker.email, "three");
    expect(failing.received).toEqual(["one", "two"]);
    // The goner's endpoint answers 410: disabled at once, the delivery parked as dead.
    await dm(goner.email, "bye");
    expect(gone.received).toEqual(["bye"]);
    // The breaker's API key is rotated with an overlap of an hour.
    const rotated = await api().post(`/api/v1/bots/${breaker.id}/api_key/rotate`, {
      as: iago,
      params: { overlap_until: String(T0 + 3600) },
    });
    expect(rotated.status).toBe(200);

    const state = async (botId: number) =>
      (await api().get(`/api/v1/bots/${botId}/dead_deliveries`, { as: iago })).body as unknown;
    const credentials = async (botId: number) =>
      (await api().get(`/api/v1/bots/${botId}/credentials`, { as: iago })).body as unknown;
    const before = {
      breaker: await state(breaker.id),
      goner: await state(goner.id),
      credentials: await credentials(breaker.id),
    };
    expect(before.breaker).toEqual({
      result: "success",
      msg: "",
      dead_deliveries: [],
      endpoints: [
        {
          service_id: expect.any(Number),
          url: failing.url,
          state: "circuit_open",
          consecutive_failures: 2,
          failing_since: T0,
          next_probe_at: T0 + 30,
          last_error: "Third party responded with 500",
          disabled_at: null,
          disabled_reason: null,
        },
      ],
    });
    expect(before.goner).toEqual({
      result: "success",
      msg: "",
      dead_deliveries: [
        {
          id: expect.any(Number),
          delivery_id: expect.stringMatching(/^\d+\.\d+$/),
          service_id: expect.any(Number),
          message_id: expect.any(Number),
          trigger: "direct_message",
          attempts: 1,
          error: "Third party responded with 410",
          created_at: T0,
          dead_at: T0,
        },
      ],
      endpoints: [
        {
          service_id: expect.any(Number),
          url: gone.url,
          state: "disabled",
          consecutive_failures: 0,
          failing_since: null,
          next_probe_at: null,
          last_error: "it answered 410 Gone",
          disabled_at: T0,
          disabled_reason: "it answered 410 Gone",
        },
      ],
    });

    await running.close();
    running = await startServer(config, { clock, logger: silentLogger });
    expect(running.firstStart).toBeUndefined();

    // Everything as it was.
    expect({
      breaker: await state(breaker.id),
      goner: await state(goner.id),
      credentials: await credentials(breaker.id),
    }).toEqual(before);

    // The circuit is still open: nothing is sent before the probe is due.
    await running.services.outgoing.tick();
    await running.services.outgoing.idle();
    expect(failing.received).toEqual(["one", "two"]);
    // The disabled endpoint still gets nothing: a new message is parked at once.
    await dm(goner.email, "still there?");
    expect(gone.received).toEqual(["bye"]);
    expect(((await state(goner.id)) as { dead_deliveries: unknown[] }).dead_deliveries).toHaveLength(2);

    // The old API key still authenticates (API and incoming webhooks) during its overlap, and the
    // incoming webhook's entry, in the delivery log's own file, is marked.
    const oldKey = { email: breaker.email, apiKey: breaker.apiKey };
    expect((await api().get("/api/v1/users/me/subscriptions", { as: oldKey })).status).toBe(200);
    const hook = await fetch(
      `${running.url}/api/v1/external/helloworld?api_key=${breaker.apiKey}&stream=nowhere`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"featured_title":"Hamlet","featured_url":"https://en.wikipedia.org/wiki/Hamlet"}',
      },
    );
    expect(hook.status).toBe(200);
    await hook.text();
    const log = await api().get(`/api/v1/bots/${breaker.id}/deliveries`, {
      as: iago,
      params: { direction: "incoming" },
    });
    expect(
      (log.body.deliveries as { integration: string; old_credential: string | null }[]).map((d) => [
        d.integration,
        d.old_credential,
      ]),
    ).toEqual([["helloworld", "api_key"]]);
    // Once the overlap ends, it does not.
    clock.advance(3600_000);
    expect((await api().get("/api/v1/users/me/subscriptions", { as: oldKey })).status).toBe(401);
  });
});
