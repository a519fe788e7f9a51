/**
 * The compose box's Preview (Zulip's, with its Alt+P shortcut): the draft as POST /messages/render
 * renders it, in the textarea's place, on a desktop and on a 390 px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import type { TestServer } from "../helpers/test-server.js";
import { seriousViolations } from "./a11y.js";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const LAYOUTS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

describeBrowser("compose preview in Chromium", () => {
  const fx = new BrowserFixture("compose-preview-test");
  let server: TestServer;

  const feedOf = (page: Page) => page.getByRole("log", { name: "Message feed" });
  const composeOf = (page: Page) => page.getByRole("form", { name: "Compose" });
  async function iago(viewport: { width: number; height: number }): Promise<Page> {
    const page = await fx.signedIn(server.users.iago.email, undefined, viewport);
    page.setDefaultTimeout(60_000);
    await feedOf(page).waitFor();
    return page;
  }
  /** Iago's compose box, addressed to Denmark > `topic`, holding `text`. */
  async function draft(page: Page, topic: string, text: string) {
    const compose = composeOf(page);
    await compose.getByLabel("Stream", { exact: true }).fill("Denmark");
    await compose.getByLabel("Topic", { exact: true }).fill(topic);
    await compose.getByLabel("Message", { exact: true }).fill(text);
    return compose;
  }

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: server.users.iago,
      params: { subscriptions: [{ name: "Denmark" }] },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  for (const [layout, viewport] of LAYOUTS) {
    it(`shows the rendered draft, goes back to editing with the text intact, and still sends (${layout})`, async () => {
      const page = await iago(viewport);
      const text = `**bold** :tada: ${layout}`;
      const compose = await draft(page, `preview ${layout}`, text);
      const message = compose.getByLabel("Message", { exact: true });
      await compose.getByRole("button", { name: "Preview" }).click();
      const preview = compose.getByRole("region", { name: "Message preview" });
      await preview.locator("strong", { hasText: "bold" }).waitFor();
      await expect(preview.locator(".emoji").textContent()).resolves.toBe("🎉");
      await expect(message.count()).resolves.toBe(0);
      await expect(seriousViolations(page)).resolves.toEqual([]);
      // On a phone the preview and the buttons fit the screen's width.
      for (const box of [
        await preview.boundingBox(),
        await compose.getByRole("button", { name: "Send" }).boundingBox(),
      ]) {
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      }

      await compose.getByRole("button", { name: "Edit" }).click();
      await expect(message.inputValue()).resolves.toBe(text);
      await page.waitForFunction(() => document.activeElement?.id === "compose-message");

      // Alt+P from the textarea, and again from the Edit button that then has the focus.
      await message.press("Alt+P");
      await preview.locator("strong", { hasText: "bold" }).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === "Edit");
      await page.keyboard.press("Alt+P");
      await expect(message.inputValue()).resolves.toBe(text);

      // Send from the preview: the message is sent as written, and the box is empty for editing.
      await compose.getByRole("button", { name: "Preview" }).click();
      await preview.locator("strong").waitFor();
      await compose.getByRole("button", { name: "Send" }).click();
      const sent = feedOf(page)
        .locator("article")
        .filter({ hasText: `🎉 ${layout}` });
      await sent.locator("strong", { hasText: "bold" }).waitFor();
      await page.waitForFunction(
        () => (document.getElementById("compose-message") as HTMLTextAreaElement | null)?.value === "",
      );
    }, 90_000);
  }

  it("says when there is nothing to preview, and shows the server's error in the preview", async () => {
    const page = await iago(DESKTOP);
    const compose = composeOf(page);
    await compose.getByRole("button", { name: "Preview" }).click();
    const preview = compose.getByRole("region", { name: "Message preview" });
    await preview.getByText("Nothing to preview.").waitFor();
    await compose.getByRole("button", { name: "Edit" }).click();
    // The server's answer when this user's requests are over the rate limit.
    await page.route("**/json/messages/render", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({
          result: "error",
          msg: "API usage exceeded rate limit",
          code: "RATE_LIMIT_HIT",
          "retry-after": 1,
        }),
      }),
    );
    await draft(page, "preview errors", "some *text*");
    await compose.getByRole("button", { name: "Preview" }).click();
    await preview.getByRole("alert").filter({ hasText: "API usage exceeded rate limit" }).waitFor();
    await compose.getByRole("button", { name: "Edit" }).click();
    await expect(compose.getByLabel("Message", { exact: true }).inputValue()).resolves.toBe("some *text*");
  }, 90_000);
});
