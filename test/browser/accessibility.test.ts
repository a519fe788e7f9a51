/**
 * Accessibility (issue 24): every main view, on a desktop and on a 390 px phone, has no axe-core
 * violation of impact "serious" or "critical"; the compose box is used with the keyboard alone.
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

describeBrowser("Accessibility of the web app's views in Chromium (axe-core)", () => {
  const fx = new BrowserFixture("accessibility-test");
  let server: TestServer;
  const feedOf = (page: Page) => page.getByRole("log", { name: "Message feed" });

  async function iago(viewport: { width: number; height: number }): Promise<Page> {
    const page = await fx.signedIn(server.users.iago.email, undefined, viewport);
    page.setDefaultTimeout(60_000);
    return page;
  }

  /** Fails with every serious or critical violation listed (id, help, targets). */
  async function expectAccessible(page: Page, view: string): Promise<void> {
    const found = await seriousViolations(page);
    if (found.length > 0) process.stderr.write(`\naxe on ${view}:\n${found.join("\n")}\n`);
    expect(found).toEqual([]);
  }

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago: me, hamlet, othello } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: me,
      params: { subscriptions: [{ name: "Denmark" }], principals: [me.email, hamlet.email, othello.email] },
    });
    const say = (content: string, topic = "castle") =>
      server.api.post("/api/v1/messages", {
        as: hamlet,
        params: { type: "stream", to: "Denmark", topic, content },
      });
    await say("To be, or not to be: **that** is the question.");
    await say(`@**${me.fullName}** the ghost walks tonight :tada:`);
    await say("A link: [docs](https://example.com) and `code`", "ramparts");
    const sent = await server.api.post("/api/v1/messages", {
      as: othello,
      params: { type: "private", to: JSON.stringify([me.id]), content: "a private word" },
    });
    await server.api.post("/api/v1/messages/flags", {
      as: me,
      params: { messages: JSON.stringify([sent.body.id]), op: "add", flag: "starred" },
    });
    await server.api.post("/api/v1/drafts", {
      as: me,
      params: {
        drafts: JSON.stringify([
          { type: "stream", to: [], topic: "plans", content: "an unfinished thought" },
        ]),
      },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  for (const [layout, viewport] of LAYOUTS) {
    const phone = layout === "phone";

    it(`the login page (${layout})`, async () => {
      const page = await fx.page(viewport);
      await page.goto(`${server.url}/login`);
      await page.getByRole("button", { name: "Log in" }).waitFor();
      await expectAccessible(page, `login (${layout})`);
    });

    it(`the chat with messages and the compose box (${layout})`, async () => {
      const page = await iago(viewport);
      await feedOf(page).getByText("the question").waitFor();
      await expectAccessible(page, `chat (${layout})`);
      // The compose box with its private-message fields.
      await page.getByLabel("Message type").selectOption("private");
      await page.getByLabel("Message", { exact: true }).fill("hello");
      await expectAccessible(page, `compose (${layout})`);
    });

    for (const [view, hash, waitFor] of [
      ["Recent conversations", "#recent", "castle"],
      ["Drafts", "#drafts", "Drafts"],
      ["Mentions", "#narrow/is/mentioned", "Mentions"],
      ["Starred messages", "#narrow/is/starred", "a private word"],
      ["search results", "#narrow/search/question", "the question"],
    ] as const) {
      it(`${view} (${layout})`, async () => {
        const page = await iago(viewport);
        await page.goto(`${server.url}/${hash}`);
        // The first visible match: on a phone the sidebar (with its own links of that name) is hidden.
        await page.getByRole("main").getByText(waitFor).filter({ visible: true }).first().waitFor();
        await expectAccessible(page, `${view} (${layout})`);
      });
    }

    it(`the stream browser (${layout})`, async () => {
      const page = await iago(viewport);
      await feedOf(page).waitFor();
      if (phone) await page.getByRole("button", { name: "Streams", exact: true }).click();
      await page.getByRole("button", { name: "Browse streams" }).click();
      await page
        .getByRole("dialog", { name: "Streams" })
        .getByRole("listitem", { name: "Denmark" })
        .waitFor();
      await expectAccessible(page, `stream browser (${layout})`);
    });

    it(`settings (${layout})`, async () => {
      const page = await iago(viewport);
      await page.goto(`${server.url}/settings`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.getByLabel("Full name", { exact: false }).first().waitFor();
      await expectAccessible(page, `settings (${layout})`);
    });

    it(`Your bots and a bot's deliveries (${layout})`, async () => {
      const page = await iago(viewport);
      await page.goto(`${server.url}/settings/bots`);
      const card = page.getByRole("listitem", { name: "Zulip Webhook Bot" });
      await card.waitFor();
      await expectAccessible(page, `Your bots (${layout})`);
      await card.getByRole("button", { name: "Deliveries" }).click();
      await card.getByRole("region", { name: "Deliveries" }).getByText("No deliveries yet.").waitFor();
      await expectAccessible(page, `deliveries (${layout})`);
    });

    it(`the integrations directory and an integration's URL builder (${layout})`, async () => {
      const page = await iago(viewport);
      await page.goto(`${server.url}/integrations`);
      await page
        .getByRole("link", { name: /helloworld|Hello World/i })
        .first()
        .waitFor();
      await expectAccessible(page, `integrations (${layout})`);
      await page.goto(`${server.url}/integrations/helloworld`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.getByLabel("Stream", { exact: false }).first().waitFor();
      await expectAccessible(page, `integration URL builder (${layout})`);
    });

    it(`the compose box is used with the keyboard alone: Tab through its fields, Ctrl+Enter sends (${layout})`, async () => {
      const page = await iago(viewport);
      await feedOf(page).waitFor();
      await page.getByLabel("Message type").focus();
      await page.keyboard.press("Tab");
      await page.keyboard.type("Denmark");
      // Each field takes the focus in turn, with a visible outline.
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return {
            label:
              el?.getAttribute("aria-label") ?? el?.closest("label")?.textContent?.trim() ?? el?.id ?? "",
            outline: el === null ? "none" : getComputedStyle(el).outlineStyle,
          };
        });
      await expect(focused()).resolves.toMatchObject({ label: expect.stringContaining("Stream") });
      await expect(focused()).resolves.not.toMatchObject({ outline: "none" });
      await page.keyboard.press("Tab");
      await page.keyboard.type(`keyboard ${layout}`);
      await expect(focused()).resolves.toMatchObject({ label: expect.stringContaining("Topic") });
      await page.keyboard.press("Tab");
      await expect(focused()).resolves.toMatchObject({ label: expect.stringContaining("Message") });
      await expect(focused()).resolves.not.toMatchObject({ outline: "none" });
      await page.keyboard.type(`sent without a mouse (${layout})`);
      await page.keyboard.press("Control+Enter");
      await feedOf(page).getByText(`sent without a mouse (${layout})`).waitFor();
      // The box empties when the send is answered, which may come after the message's event.
      const box = await page.getByLabel("Message", { exact: true }).elementHandle();
      await page.waitForFunction((el) => (el as HTMLTextAreaElement).value === "", box);
    });
  }
});
