/** Issue 24's message actions "Mark as unread from here", on a desktop and on a 390 px phone. */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, messageAction, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const LAYOUTS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

describeBrowser("chat message actions in Chromium", () => {
  const fx = new BrowserFixture("chat-actions-test");
  let server: TestServer;

  async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await condition()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
  }, 120_000);

  afterAll(() => fx.stop());

  for (const [layout, viewport] of LAYOUTS) {
    it(`marks a message and the later ones unread (${layout})`, async () => {
      const { iago, hamlet } = server.users;
      const stream = `Marks ${layout}`;
      await server.api.post("/api/v1/users/me/subscriptions", {
        as: iago,
        params: { subscriptions: [{ name: stream }], principals: [iago.email, hamlet.email] },
      });
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          (
            await server.api.post("/api/v1/messages", {
              as: hamlet,
              params: { type: "stream", to: stream, topic: "marks", content: `mark ${i} (${layout})` },
            })
          ).body.id,
        );
      await server.api.post("/api/v1/mark_all_as_read", { as: iago, params: {} });
      const page = await fx.signedIn(iago.email, undefined, viewport);
      page.setDefaultTimeout(60_000);
      if (layout === "phone") await page.getByRole("button", { name: "Streams", exact: true }).click();
      const link = page
        .getByRole("navigation", { name: "Streams" })
        .getByRole("link", { name: `#${stream}` });
      await link.click();
      const feed = page.getByRole("log", { name: "Message feed" });
      await feed.getByText(`mark 2 (${layout})`).waitFor();
      const flagsOf = async (id: number): Promise<string[]> =>
        (await server.api.get(`/api/v1/messages/${id}`, { as: iago, params: {} })).body.message.flags;
      await messageAction(feed.locator(`article[data-message-id="${ids[1]}"]`), "Mark as unread from here");
      await until(
        async () => !(await flagsOf(ids[1]!)).includes("read") && !(await flagsOf(ids[2]!)).includes("read"),
        "the message and the later one to be unread",
      );
      expect(await flagsOf(ids[0]!)).toContain("read");
      await feed.locator(`article.unread[data-message-id="${ids[2]}"]`).waitFor();
      await feed.locator(`article.unread[data-message-id="${ids[1]}"]`).waitFor();
      await expect(feed.locator(`article[data-message-id="${ids[0]}"]`).getAttribute("class")).resolves.toBe(
        "msg",
      );
      if (layout === "phone") await page.getByRole("button", { name: "Streams", exact: true }).click();
      await link.locator(".badge", { hasText: "2" }).waitFor();
      await expect(link.locator(".badge").getAttribute("aria-label")).resolves.toBe("2 unread");
    }, 90_000);

    it(`moves a topic from a message on (${layout})`, async () => {
      const { iago, hamlet } = server.users;
      const stream = `Moves ${layout}`;
      await server.api.post("/api/v1/users/me/subscriptions", {
        as: iago,
        params: { subscriptions: [{ name: stream }], principals: [iago.email, hamlet.email] },
      });
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          (
            await server.api.post("/api/v1/messages", {
              as: hamlet,
              params: { type: "stream", to: stream, topic: "old name", content: `move ${i} (${layout})` },
            })
          ).body.id,
        );
      const page = await fx.signedIn(iago.email, undefined, viewport);
      page.setDefaultTimeout(60_000);
      if (layout === "phone") await page.getByRole("button", { name: "Streams", exact: true }).click();
      const nav = page.getByRole("navigation", { name: "Streams" });
      await nav.getByRole("link", { name: `#${stream}` }).click();
      const feed = page.getByRole("log", { name: "Message feed" });
      await feed.getByText(`move 2 (${layout})`).waitFor();
      const second = feed.locator(`article[data-message-id="${ids[1]}"]`);
      await messageAction(second, "Move topic");
      await second.getByLabel("New topic").fill("new name");
      await second.getByLabel("Messages to move").selectOption("change_later");
      await second.getByRole("button", { name: "Move", exact: true }).click();
      await second.locator(".recipient", { hasText: "new name" }).waitFor();
      const topicOf = async (id: number): Promise<string> =>
        (await server.api.get(`/api/v1/messages/${id}`, { as: iago, params: {} })).body.message.subject;
      expect([await topicOf(ids[0]!), await topicOf(ids[1]!), await topicOf(ids[2]!)]).toEqual([
        "old name",
        "new name",
        "new name",
      ]);
      if (layout === "phone") await page.getByRole("button", { name: "Streams", exact: true }).click();
      await nav.getByText("new name").first().waitFor();
    }, 90_000);
  }
});
