/**
 * Issue 24's views: Recent conversations, Drafts, desktop notifications, notification and
 * organization settings; each on a desktop and on a 390 px phone where it is a view.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BrowserContext, Page } from "playwright-core";
import { OWNER_PASSWORD } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, printSkipNotice, signIn } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const LAYOUTS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

interface Draft {
  id: number;
  content: string;
  topic: string;
  type: string;
  to: number[];
}

describeBrowser("Recent conversations, Drafts, notifications and settings in Chromium", () => {
  const fx = new BrowserFixture("chat-views-test");
  let server: TestServer;
  const extraContexts: BrowserContext[] = [];

  const post = (as: TestUser, to: string, topic: string, content: string) =>
    server.api.post("/api/v1/messages", { as, params: { type: "stream", to, topic, content } });
  const dm = (as: TestUser, to: TestUser[], content: string) =>
    server.api.post("/api/v1/messages", {
      as,
      params: { type: "private", to: JSON.stringify(to.map((u) => u.id)), content },
    });
  const drafts = async (): Promise<Draft[]> =>
    (await server.api.get("/api/v1/drafts", { as: server.users.iago })).body.drafts as Draft[];
  const feedOf = (page: Page) => page.getByRole("log", { name: "Message feed" });
  const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

  async function until(condition: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 300 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await condition()).toBe(true);
  }

  async function iago(viewport: { width: number; height: number }): Promise<Page> {
    const page = await fx.signedIn(server.users.iago.email, undefined, viewport);
    page.setDefaultTimeout(60_000);
    await feedOf(page).waitFor();
    return page;
  }

  /** A sidebar link, the sidebar opened first on a phone. */
  async function sideLink(page: Page, phone: boolean, name: string) {
    if (phone) await page.getByRole("button", { name: "Streams", exact: true }).click();
    return page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name });
  }

  /** Nothing wider than the phone's screen (no sideways scrolling). */
  async function fitsWidth(page: Page, width: number): Promise<void> {
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      width,
    );
  }

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago: owner, hamlet, othello } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: owner,
      params: {
        subscriptions: [{ name: "Denmark" }],
        principals: [owner.email, hamlet.email, othello.email],
      },
    });
  }, 120_000);

  afterAll(async () => {
    for (const c of extraContexts) await c.close().catch(() => undefined);
    await fx.stop();
  });

  for (const [layout, viewport] of LAYOUTS) {
    const phone = layout === "phone";

    it(`lists recent conversations with filters, unread counts and participants (${layout})`, async () => {
      const { iago: me, hamlet, othello } = server.users;
      const page = await iago(viewport);
      await (await sideLink(page, phone, "Recent conversations")).click();
      await heading(page, "Recent conversations").waitFor();
      // Sent while the view is open (a feed on screen would mark them read).
      await post(hamlet, "Denmark", `old ${layout}`, `an old word (${layout})`);
      await post(me, "Denmark", `old ${layout}`, `my answer (${layout})`);
      await post(othello, "Denmark", `fresh ${layout}`, `fresh news (${layout})`);
      await dm(hamlet, [me], `a private word (${layout})`);
      const list = page.getByRole("list", { name: "Conversations" });
      const row = (name: string) => list.getByRole("listitem").filter({ hasText: name });
      const privateRow = row("Private with King Hamlet");
      await privateRow.waitFor();
      const names = async () =>
        (await list.getByRole("listitem").getByRole("link").allTextContents()).filter(
          (t) => t.includes(layout) || t.startsWith("Private with"),
        );
      expect((await names()).slice(0, 3)).toEqual([
        "Private with King Hamlet",
        `#Denmark › fresh ${layout}`,
        `#Denmark › old ${layout}`,
      ]);
      await row(`fresh ${layout}`).getByLabel("1 unread").waitFor();
      await expect(row(`fresh ${layout}`).getByLabel("Participants").textContent()).resolves.toBe(
        "Othello, the Moor of Venice",
      );
      await expect(row(`old ${layout}`).getByLabel("Participants").textContent()).resolves.toBe(
        "Iago, King Hamlet",
      );
      if (phone) await fitsWidth(page, viewport.width);

      // Filters: private messages only; then topics you took part in.
      await page.getByRole("button", { name: "Private messages", exact: true }).click();
      await row(`fresh ${layout}`).waitFor({ state: "detached" });
      await privateRow.waitFor();
      await page.getByRole("button", { name: "All", exact: true }).click();
      await page.getByLabel("Participated").check();
      await row(`fresh ${layout}`).waitFor({ state: "detached" });
      await row(`old ${layout}`).waitFor();
      await page.getByLabel("Participated").uncheck();

      // A new topic comes to the top while the view is open.
      await post(hamlet, "Denmark", `live ${layout}`, `just now (${layout})`);
      await until(async () => (await names())[0] === `#Denmark › live ${layout}`);

      // A row opens its conversation.
      await row(`fresh ${layout}`).getByRole("link").click();
      await heading(page, `#Denmark › fresh ${layout}`).waitFor();
      await feedOf(page).getByText(`fresh news (${layout})`).waitFor();
      await (await sideLink(page, phone, "Recent conversations")).click();
      await privateRow.getByRole("link").click();
      await heading(page, "Private with King Hamlet").waitFor();
      await feedOf(page).getByText(`a private word (${layout})`).waitFor();
      await expect(feedOf(page).getByText(`fresh news (${layout})`).count()).resolves.toBe(0);
      await expect(page.getByLabel("To", { exact: true }).count()).resolves.toBe(1);
      await page.getByRole("button", { name: "Remove King Hamlet" }).waitFor();
      await page.context().close();
    }, 120_000);

    it(`saves unsent messages as drafts, restores and deletes them (${layout})`, async () => {
      const page = await iago(viewport);
      const topic = `drafty ${layout}`;
      const text = `an unfinished thought (${layout})`;
      await page.getByLabel("Stream", { exact: true }).fill("Denmark");
      await page.getByLabel("Topic", { exact: true }).fill(topic);
      await page.getByLabel("Message", { exact: true }).fill(text);
      await page.getByText("Draft saved.").waitFor();
      const saved = (await drafts()).find((d) => d.content === text);
      expect(saved).toMatchObject({ type: "stream", topic, to: [expect.any(Number)] });

      // Another visit: the draft is in the Drafts view, and goes back into the compose box.
      const later = await iago(viewport);
      await (await sideLink(later, phone, "Drafts")).click();
      await heading(later, "Drafts").waitFor();
      const item = later.getByRole("listitem", { name: `Draft: #Denmark › ${topic}` });
      await item.getByText(text).waitFor();
      if (phone) await fitsWidth(later, viewport.width);
      await item.getByRole("button", { name: "Restore draft" }).click();
      const message = later.getByLabel("Message", { exact: true });
      await page.context().close(); // an open feed would mark new messages read for later tests
      await until(async () => (await message.inputValue()) === text);
      await expect(later.getByLabel("Topic", { exact: true }).inputValue()).resolves.toBe(topic);
      await message.press("Enter");
      // Sent: the draft is gone, from the server and from the view.
      await until(async () => (await message.inputValue()) === "");
      await until(async () => !(await drafts()).some((d) => d.content === text));
      await item.waitFor({ state: "detached" });

      // A draft saved by another client shows up live and is deleted from the view.
      const other = `from another client (${layout})`;
      await server.api.post("/api/v1/drafts", {
        as: server.users.iago,
        params: {
          drafts: JSON.stringify([
            { type: "private", to: [server.users.othello.id], topic: "", content: other },
          ]),
        },
      });
      const otherItem = later.getByRole("listitem", { name: "Draft: To Othello, the Moor of Venice" });
      await otherItem.getByText(other).waitFor();
      await otherItem.getByRole("button", { name: "Delete draft" }).click();
      await otherItem.waitFor({ state: "detached" });
      await until(async () => !(await drafts()).some((d) => d.content === other));
      await later.context().close();
    }, 120_000);
  }

  it("opens Recent conversations with t and Drafts with d, as Zulip's shortcuts", async () => {
    const page = await iago(DESKTOP);
    await page.locator("body").press("t");
    await heading(page, "Recent conversations").waitFor();
    await page.locator("body").press("d");
    await heading(page, "Drafts").waitFor();
    await page.locator("body").press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.getByRole("row", { name: "t Open Recent conversations" }).waitFor();
    await page.context().close();
  }, 60_000);

  it("shows desktop notifications for private messages and mentions while the tab is hidden, when enabled", async () => {
    const { iago: me, hamlet, othello } = server.users;
    const context = await fx.browser.newContext({ viewport: DESKTOP, permissions: ["notifications"] });
    extraContexts.push(context);
    // Observe the Notification API (and say the tab is hidden when the test asks).
    await context.addInitScript(() => {
      const w = window as unknown as {
        notes: { title: string; body: string }[];
        setHidden: (h: boolean) => void;
        Notification: unknown;
      };
      w.notes = [];
      let hidden = false;
      w.setHidden = (h: boolean) => {
        hidden = h;
      };
      w.Notification = class {
        static permission = "granted";
        static requestPermission = () => Promise.resolve("granted");
        onclick: (() => void) | null = null;
        constructor(title: string, options?: { body?: string }) {
          w.notes.push({ title, body: options?.body ?? "" });
        }
        close() {}
      };
      Object.defineProperty(Document.prototype, "visibilityState", {
        configurable: true,
        get: () => (hidden ? "hidden" : "visible"),
      });
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signIn(page, server.url, me.email, OWNER_PASSWORD);
    const notes = () => page.evaluate(() => (window as unknown as { notes: unknown[] }).notes);
    const setting = async (on: boolean) => {
      await page.goto(`${server.url}/settings`);
      const box = page
        .getByRole("region", { name: "Notifications" })
        .getByLabel("Desktop notifications for mentions and private messages");
      await box.waitFor();
      if ((await box.isChecked()) !== on) {
        await box.setChecked(on);
        await page.getByRole("status").filter({ hasText: "Notification settings saved." }).waitFor();
      }
      // From the server again (a fresh load), then to the chat with the tab hidden.
      await page.goto(`${server.url}/`);
      await feedOf(page).waitFor();
      await page.evaluate(() => (window as unknown as { setHidden: (h: boolean) => void }).setHidden(true));
    };

    await setting(false);
    await dm(hamlet, [me], "while notifications are off");
    await feedOf(page).getByText("while notifications are off").waitFor();
    await expect(notes()).resolves.toEqual([]);

    await setting(true);
    await dm(hamlet, [me], "a private word for you");
    await post(othello, "Denmark", "notices", "@**Iago** please look");
    await post(othello, "Denmark", "notices", "chatter for nobody in particular");
    await feedOf(page).getByText("chatter for nobody in particular").waitFor();
    await expect(notes()).resolves.toEqual([
      { title: "King Hamlet", body: "a private word for you" },
      { title: "Othello, the Moor of Venice (#Denmark > notices)", body: "@Iago please look" },
    ]);
    await context.close();
  }, 120_000);

  for (const [layout, viewport] of LAYOUTS) {
    it(`organization settings are for administrators and are saved on the server (${layout})`, async () => {
      const page = await iago(viewport);
      await page.goto(`${server.url}/settings`);
      const org = page.getByRole("region", { name: "Organization" });
      const policy = org.getByLabel("Messages without a topic");
      await policy.selectOption("disable_empty_topic");
      await org.getByRole("status").filter({ hasText: "Organization settings saved." }).waitFor();
      if (layout === "phone") await fitsWidth(page, viewport.width);
      await page.reload();
      await expect(
        page
          .getByRole("region", { name: "Organization" })
          .getByLabel("Messages without a topic")
          .inputValue(),
      ).resolves.toBe("disable_empty_topic");
      await page
        .getByRole("region", { name: "Organization" })
        .getByLabel("Messages without a topic")
        .selectOption("allow_empty_topic");
      await page.getByRole("status").filter({ hasText: "Organization settings saved." }).waitFor();

      // The organization's name and description: saved, and every member's page shows the name.
      const card = page.getByRole("region", { name: "Organization" });
      await card.getByLabel("Organization name").fill(`Elsinore ${layout}`);
      await card.getByLabel("Description").fill("The castle's chat");
      await card.getByRole("button", { name: "Save name and description" }).click();
      await card.getByRole("status").filter({ hasText: "Organization settings saved." }).waitFor();
      const realm = await server.api.post("/api/v1/register", {
        as: server.users.hamlet,
        params: { fetch_event_types: JSON.stringify(["realm"]) },
      });
      expect([realm.body.realm_name, realm.body.realm_description]).toEqual([
        `Elsinore ${layout}`,
        "The castle's chat",
      ]);

      const hamlet = await fx.signedIn(server.users.hamlet.email, "hamlet@zulip.com-password", viewport);
      await hamlet.goto(`${server.url}/settings`);
      await hamlet.getByRole("region", { name: "Notifications" }).waitFor();
      await expect(hamlet.getByRole("region", { name: "Organization" }).count()).resolves.toBe(0);
      await page.context().close();
      await hamlet.context().close();
    }, 120_000);
  }
});
