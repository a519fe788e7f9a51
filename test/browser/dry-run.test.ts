/**
 * Dry-run replay on the Deliveries page (issue 28): a template bot's delivery, a draft template, and
 * the diff of what was posted then against what the draft would post, posting nothing; on a desktop
 * and on a 390 px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("dry-run replay in Chromium", () => {
  const fx = new BrowserFixture("dry-run-browser-test");
  let apiKey = "";

  beforeAll(async () => {
    await fx.start();
    const { iago } = fx.server.users;
    await fx.server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "ops" }] },
    });
    const bot = await fx.server.api.post("/api/v1/bots", {
      as: iago,
      params: {
        full_name: "Deploy notices",
        short_name: "deploys",
        bot_type: 2,
        config_data: { template_topic: "deploys", template_body: "{{ payload.app }} deployed" },
      },
    });
    apiKey = bot.body.api_key as string;
  }, 120_000);
  afterAll(() => fx.stop());

  for (const [layout, viewport, app] of [
    ["desktop", DESKTOP, "billing"],
    ["phone", PHONE, "search"],
  ] as const) {
    it(`shows what a draft template would post for a delivery it received (${layout})`, async () => {
      const res = await fetch(`${fx.server.url}/api/v1/external/template?api_key=${apiKey}&stream=ops`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ app }),
      });
      expect({ status: res.status, body: res.status === 200 ? "" : await res.text() }).toEqual({
        status: 200,
        body: "",
      });
      const page = await fx.signedIn(fx.server.users.iago.email, undefined, viewport);
      page.setDefaultTimeout(60_000);
      await page.goto(`${fx.server.url}/settings/bots`);
      const card = page.getByRole("listitem", { name: "Deploy notices" });
      await card.getByRole("button", { name: "Deliveries" }).click();
      await card.locator(".delivery-row").first().click();
      const detail = card.locator(".delivery-detail");
      await detail.getByLabel(/Draft template body/).fill("**{{ payload.app }}** is live");
      await detail.getByRole("button", { name: "Dry run" }).click();
      const dry = detail.getByRole("region", { name: "Dry run" });
      await dry.getByText("Today's code would post this differently.").waitFor();
      await expect(dry.getByLabel("Dry-run diff").textContent()).resolves.toBe(
        `- ${app} deployed\n  deploys\n+ **${app}** is live\n`,
      );
      // Nothing was posted: the stream holds the one message of the delivery.
      const msgs = await fx.server.api.get("/api/v1/messages", {
        as: fx.server.users.iago,
        params: {
          anchor: "newest",
          num_before: 10,
          num_after: 0,
          narrow: [{ operator: "stream", operand: "ops" }],
        },
      });
      expect(
        (msgs.body.messages as { content: string }[]).filter((m) => m.content.includes(app)),
      ).toHaveLength(1);
    }, 240_000);
  }

  for (const [layout, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`lists the last deliveries a draft template would post differently (${layout})`, async () => {
      for (const app of [`auth-${layout}`, `web-${layout}`]) {
        const res = await fetch(`${fx.server.url}/api/v1/external/template?api_key=${apiKey}&stream=ops`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ app }),
        });
        expect(res.status).toBe(200);
      }
      const page = await fx.signedIn(fx.server.users.iago.email, undefined, viewport);
      page.setDefaultTimeout(60_000);
      await page.goto(`${fx.server.url}/settings/bots`);
      const card = page.getByRole("listitem", { name: "Deploy notices" });
      await card.getByRole("button", { name: "Deliveries" }).click();
      const bulk = card.getByRole("region", { name: "Bulk dry run" });
      await bulk.getByLabel("Number of deliveries").fill("2");
      await bulk
        .getByLabel(/Draft template body \(optional, for the dry run over them\)/)
        .fill(
          `{% if payload.app == "web-${layout}" %}**{{ payload.app }}** is live{% else %}{{ payload.app }} deployed{% endif %}`,
        );
      await bulk.getByRole("button", { name: "Dry run over them" }).click();
      await bulk.getByText("1 of 2 deliveries would be posted differently.").waitFor();
      const changes = bulk.getByRole("list", { name: "Deliveries that would change" }).getByRole("listitem");
      await expect(changes.count()).resolves.toBe(1);
      await expect(changes.first().getByLabel("Dry-run diff").textContent()).resolves.toBe(
        `- web-${layout} deployed\n  deploys\n+ **web-${layout}** is live\n`,
      );
    }, 240_000);
  }
});
