/**
 * Defect 8 (issue 11): an outgoing webhook interrupted mid-delivery (crash or shutdown after the
 * receiver got it, before the answer was recorded) is sent again. At-least-once stays, but every
 * attempt of one delivery now carries the same id in the X-Delivery-Id header and the
 * payload's `delivery_id`, so receivers can deduplicate.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { LOOPBACK_ALLOW } from "../helpers/test-server.js";
import { startServer } from "../../src/server.js";

// Real servers and scrypt on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Received {
  header: string | undefined;
  body: { delivery_id?: string; data?: string };
}

describe("defect 8: a stable delivery id for outgoing webhooks", () => {
  it("sends the same id in the header and the payload when a delivery is repeated after a restart", async () => {
    const received: Received[] = [];
    let hang = true;
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString("utf8")));
      req.on("end", () => {
        received.push({
          header: req.headers["x-delivery-id"] as string | undefined,
          body: JSON.parse(body) as Received["body"],
        });
        if (!hang) res.end(JSON.stringify({ content: "done" }));
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    cleanups.push(async () => {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    });

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rel-delivery-"));
    cleanups.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const clock = new ManualClock();
    const config = defaultConfig({
      port: 0,
      dataDir,
      ownerEmail: "iago@zulip.com",
      botDomain: "zulip.com",
      rateLimit: null,
      logLevel: "silent",
      outgoingWebhookAllow: LOOPBACK_ALLOW,
    });
    let running = await startServer(config, { clock, logger: silentLogger, ownerPassword: "pw" });
    const iago = running.firstStart!.owner;
    const { bot } = await running.services.users.createBot(iago, {
      fullName: "Outgoing Bot",
      shortName: "outgoing",
      botType: 3,
      payloadUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
    });
    const messageId = await running.services.messages.send(iago, {
      type: "private",
      to: [bot.email],
      content: "deliver me once",
    });
    // The receiver has the request; the server stops before the answer comes back.
    while (received.length === 0) await new Promise((r) => setTimeout(r, 5));
    await running.close();

    hang = false;
    running = await startServer(config, { clock, logger: silentLogger });
    cleanups.push(() => running.close());
    await running.services.outgoing.tick();
    await running.services.outgoing.idle();

    // <message id>.<job id>: the first job, for the message sent above.
    expect(messageId).toBe(1);
    const expected = "1.1";
    expect(received.map((r) => [r.header, r.body.delivery_id, r.body.data])).toEqual([
      [expected, expected, "deliver me once"],
      [expected, expected, "deliver me once"],
    ]);
  });
});
