import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { ensureWebBuilt, hasChromium, launchBrowser, printSkipNotice, signIn } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

/** Uploads a custom emoji as a client does (multipart, one image). */
async function uploadEmoji(server: TestServer, as: TestUser, name: string, colour: string): Promise<void> {
  const image = await sharp({ create: { width: 16, height: 16, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(image)]), `${name}.png`);
  const res = await fetch(`${server.url}/api/v1/realm/emoji/${name}`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${as.email}:${as.apiKey}`).toString("base64")}` },
    body: form,
  });
  expect(await res.json()).toEqual({ result: "success", msg: "" });
}

describeBrowser("custom emoji in the web app (Chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    ensureWebBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "emoji-browser-test-"));
    server = await startTestServer({ config: { dataDir } });
    const { iago } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [iago.email] },
    });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the realm's custom emoji in the compose picker (live), inserts one, and shows it sent", async () => {
    await uploadEmoji(server, server.users.hamlet, "green_tick", "#00aa00");
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    const picker = page.locator(".emoji-picker");
    await picker.getByText("Emoji").click();
    const emoji = picker.getByRole("listbox", { name: "Custom emoji" });
    await emoji.getByTitle(":green_tick:").waitFor();
    // An emoji uploaded while the page is open arrives with the realm_emoji event.
    await uploadEmoji(server, server.users.hamlet, "red_cross", "#aa0000");
    await emoji.getByTitle(":red_cross:").waitFor({ timeout: 60_000 });

    await page.getByLabel("Stream", { exact: true }).fill("Denmark");
    await page.getByLabel("Topic", { exact: true }).fill("emoji");
    await page.getByLabel("Message", { exact: true }).fill("done");
    await emoji.getByTitle(":green_tick:").click();
    expect(await page.getByLabel("Message", { exact: true }).inputValue()).toBe("done :green_tick: ");
    await page.getByRole("button", { name: "Send" }).click();
    const img = page.locator("article img.emoji[alt=':green_tick:']");
    await img.waitFor();
    // The image loads from its source_url (public, as in Zulip).
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>("article img.emoji");
      return el !== null && el.complete && el.naturalWidth === 64;
    });
    await context.close();
  }, 90_000);
});
