/**
 * Settings → Your bots → Deliveries in Chromium for an outgoing-webhook bot whose endpoint was down:
 * its dead letters listed, and Replay all sending them once the endpoint is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { defaultConfig } from "../../src/config.js";
import { BrowserFixture, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

async function until(probe: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeBrowser("dead letters in Chromium", () => {
  // One attempt, so an endpoint that is down makes a dead letter at once; no summary window.
  const fx = new BrowserFixture("dead-letters-browser-test", {
    outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, maxAttempts: 1, deadNoticeWindowMs: 0 },
  });
  const received: string[] = [];
  let receiver: http.Server | undefined;
  let port = 0;

  beforeAll(async () => {
    await fx.start();
    // Reserve a port for the endpoint and leave it closed: the bot's endpoint is down.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { iago, hamlet } = fx.server.users;
    const bot = await fx.server.api.post("/api/v1/bots", {
      as: iago,
      params: {
        full_name: "Outgoing Bot",
        short_name: "outgoing",
        bot_type: 3,
        payload_url: JSON.stringify(`http://127.0.0.1:${port}/`),
        interface_type: 1,
      },
    });
    expect(bot.status).toBe(200);
    for (const text of ["one", "two"]) {
      const res = await fx.server.api.post("/api/v1/messages", {
        as: hamlet,
        params: { type: "private", to: JSON.stringify([bot.body.email]), content: text },
      });
      expect(res.status).toBe(200);
    }
    await fx.server.running.services.outgoing.idle();
    expect((await fx.server.running.services.outgoing.jobs()).map((j) => j.status)).toEqual(["dead", "dead"]);
  }, 120_000);

  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) =>
      receiver === undefined ? resolve() : receiver.close(() => resolve()),
    );
    await fx.stop();
  });

  it("lists the dead deliveries and sends them all again with Replay all", async () => {
    // The endpoint is back.
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push((JSON.parse(body) as { data: string }).data);
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"response_not_required": true}');
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(port, "127.0.0.1", () => resolve()));

    const page = await fx.signedIn(fx.server.users.iago.email);
    await page.goto(`${fx.server.url}/settings/bots`);
    const card = page.getByRole("listitem", { name: "Outgoing Bot" });
    await card.getByRole("button", { name: "Deliveries" }).click();
    const panel = card.getByRole("region", { name: "Dead letters" });
    await panel.getByRole("heading", { name: "Dead letters (2)" }).waitFor();
    expect(await panel.locator(".dead-row").count()).toBe(2);
    await expect(panel.locator(".dead-row .error").first().textContent()).resolves.toBe(
      "A connection error occurred. Is my bot server down?",
    );

    await panel.getByRole("button", { name: "Replay all" }).click();
    await panel.getByRole("status").filter({ hasText: "Replayed 2 deliveries." }).waitFor();
    await panel.getByRole("heading", { name: "Dead letters (0)" }).waitFor();
    await until(() => received.length === 2);
    expect([...received].sort()).toEqual(["one", "two"]);
  }, 240_000);
});
