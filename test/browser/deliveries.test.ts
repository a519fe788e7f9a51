/**
 * Settings → Your bots → Deliveries in Chromium: a bot's delivery log with outcomes, filters,
 * paging, the redacted detail view and Replay; on a desktop and on a phone-sized viewport.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { BrowserFixture, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const HELLO =
  '{"featured_title":"Marilyn Monroe","featured_url":"https://en.wikipedia.org/wiki/Marilyn_Monroe"}';

describeBrowser("delivery log in Chromium", () => {
  const fx = new BrowserFixture("deliveries-browser-test");

  /** Posts the helloworld payload as iago's webhook bot to `stream`; answers the HTTP status. */
  async function hook(stream: string): Promise<number> {
    const key = fx.server.users.webhookBot.apiKey;
    const res = await fetch(
      `${fx.server.url}/api/v1/external/helloworld?api_key=${key}&stream=${encodeURIComponent(stream)}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: HELLO },
    );
    await res.text();
    return res.status;
  }

  async function openDeliveries(page: Page): Promise<void> {
    await page.goto(`${fx.server.url}/settings/bots`);
    const card = page.getByRole("listitem", { name: "Zulip Webhook Bot" });
    await card.getByRole("button", { name: "Deliveries" }).click();
    await card.getByRole("region", { name: "Deliveries" }).waitFor();
  }

  const rows = (page: Page) => page.locator(".delivery-row");

  beforeAll(async () => {
    await fx.start();
    const { iago, webhookBot } = fx.server.users;
    await fx.server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [iago.email, webhookBot.email] },
    });
    // 21 sent, then one to a stream that does not exist yet (answered 200, logged as failed).
    for (let i = 0; i < 21; i++) expect(await hook("Denmark")).toBe(200);
    expect(await hook("Elsinore")).toBe(200);
  }, 120_000);

  afterAll(() => fx.stop());

  it("lists a bot's deliveries newest first with their outcome, and pages to the oldest", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openDeliveries(page);
    await expect(rows(page).first().getAttribute("aria-label")).resolves.toMatch(
      /^Delivery \d+: incoming default, failed$/,
    );
    expect(await rows(page).count()).toBe(20);
    await page.getByRole("button", { name: "Older deliveries" }).click();
    await page.getByRole("button", { name: "Older deliveries" }).waitFor({ state: "detached" });
    expect(await rows(page).count()).toBe(22);
    const labels = await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    const ids = labels.map((l) => Number(/^Delivery (\d+)/.exec(l ?? "")?.[1]));
    // Newest first, every entry once.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(22);
    expect(labels.filter((l) => l?.endsWith(", sent"))).toHaveLength(21);
  }, 60_000);

  it("filters by outcome and direction", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openDeliveries(page);
    await page.getByLabel("Outcome").selectOption("failed");
    await page.waitForFunction(() => document.querySelectorAll(".delivery-row").length === 1);
    await expect(rows(page).first().getAttribute("aria-label")).resolves.toMatch(/, failed$/);
    await page.getByLabel("Outcome").selectOption("");
    await page.getByLabel("Direction").selectOption("outgoing");
    await page.getByText("No deliveries yet.").waitFor();
    expect(await rows(page).count()).toBe(0);
  }, 60_000);

  it("shows a delivery's request and answer without the API key, and replays it", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openDeliveries(page);
    await page.getByLabel("Outcome").selectOption("failed");
    await page.waitForFunction(() => document.querySelectorAll(".delivery-row").length === 1);
    const row = rows(page).first();
    const failedId = Number(/^Delivery (\d+)/.exec((await row.getAttribute("aria-label")) ?? "")?.[1]);
    await row.click();
    const detail = page.getByRole("region", { name: `Delivery ${failedId}` });
    await detail.waitFor();
    await expect(detail.textContent()).resolves.toContain("POST /api/v1/external/helloworld?stream=Elsinore");
    await expect(detail.getByLabel("Request body").textContent()).resolves.toBe(
      JSON.stringify(JSON.parse(HELLO), null, 2),
    );
    await expect(detail.getByLabel("Request headers").textContent()).resolves.toContain(
      "content-type: application/json",
    );
    await expect(detail.getByLabel("Response body").textContent()).resolves.toBe(
      JSON.stringify({ result: "success", msg: "" }, null, 2),
    );
    await expect(detail.textContent()).resolves.toContain("does not exist");
    const html = await page.content();
    expect(html).not.toContain(fx.server.users.webhookBot.apiKey);

    // The stream exists now: Replay posts the message; the new entry points to the original.
    const { iago, webhookBot } = fx.server.users;
    await fx.server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Elsinore" }], principals: [iago.email, webhookBot.email] },
    });
    await detail.getByRole("button", { name: "Replay" }).click();
    const status = await detail.getByRole("status").textContent();
    const replayId = Number(/^Replayed as #(\d+): sent\.$/.exec(status ?? "")?.[1]);
    expect(replayId).toBeGreaterThan(failedId);

    const res = await fx.server.api.get(`/api/v1/bots/${webhookBot.id}/deliveries`, {
      as: iago,
      params: { num: 1 },
    });
    const entry = (res.body.deliveries as Record<string, unknown>[])[0]!;
    expect(entry["id"]).toBe(replayId);
    expect(entry["replay_of"]).toBe(failedId);
    expect(entry["outcome"]).toBe("sent");

    // Back to every outcome: the replay is listed first, and its detail names the original.
    await page.getByLabel("Outcome").selectOption("");
    await page.getByRole("button", { name: `Delivery ${replayId}: incoming default, sent` }).waitFor();
    await expect(rows(page).first().getAttribute("aria-label")).resolves.toBe(
      `Delivery ${replayId}: incoming default, sent`,
    );
    await rows(page).first().click();
    await expect(page.getByRole("region", { name: `Delivery ${replayId}` }).textContent()).resolves.toContain(
      `Replay of#${failedId}`,
    );
  }, 60_000);

  it("fits a phone-sized screen", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email, undefined, PHONE);
    await openDeliveries(page);
    await rows(page).first().click();
    await page.locator(".delivery-detail").waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await expect(page.getByRole("button", { name: "Replay" }).isVisible()).resolves.toBe(true);
  }, 60_000);

  it("is not offered to a user who does not own the bot", async () => {
    const page = await fx.signedIn(fx.server.users.hamlet.email, "hamlet@zulip.com-password");
    await page.goto(`${fx.server.url}/settings/bots`);
    await page.getByText("You have no bots yet.").waitFor();
    // The web app's own path (session cookie) refuses the log of someone else's bot.
    const answer = await page.evaluate(async (id) => {
      const res = await fetch(`/json/bots/${id}/deliveries`);
      return { status: res.status, body: (await res.json()) as unknown };
    }, fx.server.users.webhookBot.id);
    expect(answer).toEqual({
      status: 403,
      body: { result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" },
    });
  }, 60_000);
});
