/**
 * Settings → Your bots in Chromium: rotating a bot's API key and an outgoing bot's token with an
 * overlap, retiring the old one, the Deliveries page's badge on a request made with the old key, and
 * switching a bot's signatures to Ed25519.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { BrowserFixture, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const HELLO =
  '{"featured_title":"Marilyn Monroe","featured_url":"https://en.wikipedia.org/wiki/Marilyn_Monroe"}';

describeBrowser("credential rotation in Chromium", () => {
  const fx = new BrowserFixture("credential-rotation-browser-test");

  /** Posts the helloworld payload with `key`; answers the HTTP status. */
  async function hook(key: string): Promise<number> {
    const res = await fetch(`${fx.server.url}/api/v1/external/helloworld?api_key=${key}&stream=Denmark`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: HELLO,
    });
    await res.text();
    return res.status;
  }

  async function card(page: Page, name: string) {
    await page.goto(`${fx.server.url}/settings/bots`);
    const found = page.getByRole("listitem", { name });
    await found.getByRole("region", { name: "Credential rotation" }).waitFor();
    return found;
  }

  beforeAll(async () => {
    await fx.start();
    const { iago, webhookBot } = fx.server.users;
    await fx.server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [iago.email, webhookBot.email] },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  it("rotates the API key with an overlap, marks the old key's deliveries, and retires it", async () => {
    const { iago, webhookBot } = fx.server.users;
    const page = await fx.signedIn(iago.email);
    const bot = await card(page, "Zulip Webhook Bot");
    const panel = bot.getByRole("region", { name: "Credential rotation" });
    // A webhook bot has no outgoing token to rotate.
    expect(await panel.getByRole("button", { name: "Rotate outgoing token" }).count()).toBe(0);
    await panel.getByLabel("Keep the old one valid for (hours)").fill("2");
    await panel.getByRole("button", { name: "Rotate API key" }).click();
    await expect(panel.getByRole("status").textContent()).resolves.toBe(
      "New API key; the old one still works during the overlap.",
    );
    await expect(panel.getByRole("list", { name: "Old credentials" }).textContent()).resolves.toMatch(
      /^Old API key: valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    // The card shows the new key (the one the server now has).
    const current = await fx.server.api.get(`/api/v1/bots/${webhookBot.id}/credentials`, { as: iago });
    const fresh = current.body.api_key as string;
    expect(fresh).not.toBe(webhookBot.apiKey);
    await bot.getByRole("button", { name: "Show API key" }).click();
    await expect(bot.getByLabel("API key", { exact: true }).inputValue()).resolves.toBe(fresh);

    // Both keys work; the old key's delivery carries a badge on the Deliveries page.
    expect(await hook(webhookBot.apiKey)).toBe(200);
    expect(await hook(fresh)).toBe(200);
    await bot.getByRole("button", { name: "Deliveries" }).click();
    const rows = bot.locator(".delivery-row");
    await rows.nth(1).waitFor();
    await expect(rows.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).resolves.toEqual([
      expect.stringMatching(/^Delivery \d+: incoming default, sent$/),
      expect.stringMatching(/^Delivery \d+: incoming default, sent, old API key$/),
    ]);
    await expect(rows.nth(1).locator(".old-credential").textContent()).resolves.toBe("old API key");
    await rows.nth(1).click();
    await expect(bot.locator(".delivery-detail").textContent()).resolves.toContain("Credentialold API key");

    await panel.getByRole("button", { name: "Retire old API key now" }).click();
    await expect(panel.getByRole("status").textContent()).resolves.toBe(
      "Old API key retired: only the current one works.",
    );
    await panel.getByRole("list", { name: "Old credentials" }).waitFor({ state: "detached" });
    expect(await hook(webhookBot.apiKey)).toBe(401);
    expect(await hook(fresh)).toBe(200);
  }, 60_000);

  it("rotates an outgoing bot's token until retired, then retires it", async () => {
    const { iago } = fx.server.users;
    const created = await fx.server.api.post("/api/v1/bots", {
      as: iago,
      params: {
        full_name: "Outgoing Bot",
        short_name: "outgoing",
        bot_type: 3,
        payload_url: JSON.stringify("http://127.0.0.1:9/"),
        interface_type: 1,
      },
    });
    expect(created.status).toBe(200);
    const botId = created.body.user_id as number;
    const oldToken = created.body.services[0].token as string;
    const page = await fx.signedIn(iago.email);
    const bot = await card(page, "Outgoing Bot");
    const panel = bot.getByRole("region", { name: "Credential rotation" });
    // Empty hours: the old token stays until retired.
    await panel.getByLabel("Keep the old one valid for (hours)").fill("");
    await panel.getByRole("button", { name: "Rotate outgoing token" }).click();
    await expect(panel.getByRole("status").textContent()).resolves.toBe(
      "New outgoing token; the old one is still sent during the overlap.",
    );
    await expect(panel.getByRole("list", { name: "Old credentials" }).textContent()).resolves.toBe(
      `Old outgoing token ${oldToken}: valid until you retire it`,
    );
    const listed = await fx.server.api.get(`/api/v1/bots/${botId}/credentials`, { as: iago });
    expect(listed.body.old_tokens).toEqual([
      { token: oldToken, rotated_at: expect.any(Number), retires_at: null },
    ]);
    const newToken = listed.body.token as string;
    expect(newToken).not.toBe(oldToken);
    // The botserverrc section offered gives the bot server both tokens during the overlap.
    await bot.getByRole("button", { name: "Show API key" }).click();
    const rc = bot.getByLabel("botserverrc section");
    await expect(rc.inputValue()).resolves.toContain(`\ntoken=${newToken} ${oldToken}\n`);

    await panel.getByRole("button", { name: "Retire old token now" }).click();
    await expect(panel.getByRole("status").textContent()).resolves.toBe(
      "Old token retired: the current one is sent.",
    );
    const after = await fx.server.api.get(`/api/v1/bots/${botId}/credentials`, { as: iago });
    expect(after.body.old_tokens).toEqual([]);
    await expect(rc.inputValue()).resolves.toContain(`\ntoken=${newToken}\n`);

    // Signing switched to Ed25519: the panel lists the public key (whpk_), never the secret key.
    const signing = bot.getByRole("region", { name: "Signing secrets" });
    await signing.getByLabel("Algorithm").selectOption("ed25519");
    await signing.getByRole("button", { name: "Rotate signing secret" }).click();
    await signing.getByText(/^whpk_.+/).waitFor();
    const listed2 = await fx.server.api.get(`/api/v1/bots/${botId}/signing_secrets`, { as: iago });
    const publicKey = listed2.body.signing_secrets[0].public_key as string;
    await expect(signing.locator("li code").first().textContent()).resolves.toBe(publicKey);
    await expect(signing.locator("li").first().textContent()).resolves.toContain("Ed25519 public key");
    expect(await page.content()).not.toContain("whsk_");
  }, 60_000);
});
