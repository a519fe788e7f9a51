/**
 * The template integration's page in Chromium: the template editor's live preview (rendered by
 * the server), its errors with line and column, debouncing, saving the templates to a bot, and a
 * phone-sized viewport.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { BrowserFixture, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("template editor in Chromium", () => {
  const fx = new BrowserFixture("template-editor-browser-test");

  async function openEditor(page: Page): Promise<void> {
    await page.goto(`${fx.server.url}/integrations/template`);
    await page.getByRole("region", { name: "Template editor" }).waitFor();
  }

  /** Waits until the preview shows `body` (the answer to the latest edit), then reads the topic. */
  async function previewShows(page: Page, body: string): Promise<string | null> {
    await page.waitForFunction(
      (text) => document.querySelector('[aria-label="Preview body"]')?.textContent === text,
      body,
    );
    return page.getByLabel("Preview topic").textContent();
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

  it("previews the example templates against the sample payload, and follows edits", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openEditor(page);
    await expect(
      previewShows(
        page,
        ":red_circle: **api** is down ([details](https://healthchecks.example.com/checks/1/details/))",
      ),
    ).resolves.toBe("api");

    const payload = page.getByLabel("Sample payload (JSON)");
    await payload.fill('{"name": "db_*main*", "status": "up", "url": "https://example.com/x"}');
    await expect(
      previewShows(page, ":green_circle: **db\\_\\*main\\*** is back up ([details](https://example.com/x))"),
    ).resolves.toBe("db_*main*");

    await page.getByLabel("Topic template").fill("{{ payload.status | upcase }}");
    await page.getByLabel("Body template").fill("{{ payload.url | link: payload.name }}");
    await expect(previewShows(page, "[db\\_\\*main\\*](https://example.com/x)")).resolves.toBe("UP");
  }, 60_000);

  it("shows a template error with its line and column", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openEditor(page);
    await page.getByLabel("Body template").fill("ok\n{% if payload.status %}");
    const alert = page.getByRole("alert", { name: "Template error" });
    await alert.waitFor();
    await expect(alert.locator("p").allTextContents()).resolves.toEqual([
      "Error in template_body at line 2, column 1: tag {% if payload.status %} not closed",
      "template_body · line 2, column 1",
    ]);
    await expect(page.getByLabel("Body template").getAttribute("aria-invalid")).resolves.toBe("true");

    // A payload that is not JSON is refused by the server, with its message.
    await page.getByLabel("Body template").fill("{{ payload.name }}");
    await page.getByLabel("Sample payload (JSON)").fill("{not json");
    await page.waitForFunction(
      () =>
        document.querySelector('[aria-label="Template error"]')?.textContent?.includes("payload") === true,
    );
    await page.getByLabel("Sample payload (JSON)").fill('{"name": "fixed"}');
    await expect(previewShows(page, "fixed")).resolves.toBe("fixed");
  }, 60_000);

  it("asks for a preview once typing pauses, not on every key", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    let previews = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/json/integrations/template/preview")) previews++;
    });
    await openEditor(page);
    await previewShows(
      page,
      ":red_circle: **api** is down ([details](https://healthchecks.example.com/checks/1/details/))",
    );
    const before = previews;
    const field = page.getByLabel("Body template");
    await field.fill("");
    const typed = "Deployed {{ payload.name }}";
    await field.pressSequentially(typed);
    await expect(previewShows(page, "Deployed api")).resolves.toBe("api");
    // Keys typed without a pause share one request (or a few, if the machine stalls).
    expect(previews - before).toBeGreaterThanOrEqual(1);
    expect(previews - before).toBeLessThan(typed.length / 3);
  }, 60_000);

  it("saves the templates to the chosen bot, which then posts with them", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email);
    await openEditor(page);
    await page
      .getByLabel("Bot", { exact: true })
      .selectOption({ label: "Zulip Webhook Bot (webhook-bot@zulip.com)" });
    await page.getByLabel("Topic template").fill("check {{ payload.name }}");
    await page.getByLabel("Body template").fill("{{ payload.name }} is **{{ payload.status }}**");
    await previewShows(page, "api is **down**");
    await page.getByRole("button", { name: "Save templates to bot" }).click();
    await expect(
      page.getByRole("region", { name: "Template editor" }).getByRole("status").textContent(),
    ).resolves.toBe("Templates saved to Zulip Webhook Bot.");

    const { iago, webhookBot } = fx.server.users;
    const res = await fetch(
      `${fx.server.url}/api/v1/external/template?api_key=${webhookBot.apiKey}&stream=Denmark`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"name": "web", "status": "up"}',
      },
    );
    expect(res.status).toBe(200);
    const messages = await fx.server.api.get("/api/v1/messages", {
      as: iago,
      params: { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false },
    });
    const last = (messages.body.messages as Record<string, unknown>[])[0]!;
    expect([last["subject"], last["content"], last["sender_email"]]).toEqual([
      "check web",
      "web is **up**",
      webhookBot.email,
    ]);
  }, 60_000);

  it("fits a phone-sized screen, preview under the fields", async () => {
    const page = await fx.signedIn(fx.server.users.iago.email, undefined, PHONE);
    await openEditor(page);
    await previewShows(
      page,
      ":red_circle: **api** is down ([details](https://healthchecks.example.com/checks/1/details/))",
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    const fields = await page.getByLabel("Sample payload (JSON)").boundingBox();
    const preview = await page.getByLabel("Preview body").boundingBox();
    expect(preview!.y).toBeGreaterThan(fields!.y + fields!.height);
    expect(preview!.x + preview!.width).toBeLessThanOrEqual(PHONE.width);
  }, 60_000);
});
