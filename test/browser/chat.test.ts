import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { OWNER_PASSWORD } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, hasChromium, printSkipNotice, signIn } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("chat in Chromium: live updates, editing, mentions, history", () => {
  const fx = new BrowserFixture("chat-browser-test");
  let server: TestServer;

  /** Iago's page, signed in; `watch` sees the page before its first request. */
  async function iagoPage(watch: (page: Page) => void = () => undefined): Promise<Page> {
    const page = await fx.page();
    watch(page);
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    return page;
  }

  async function until(condition: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(condition()).toBe(true);
  }

  const say = (topic: string, content: string) =>
    server.api.post("/api/v1/messages", {
      as: server.users.hamlet,
      params: { type: "stream", to: "Denmark", topic, content },
    });

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago, hamlet } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [iago.email, hamlet.email] },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  it("registers again after BAD_EVENT_QUEUE_ID and keeps showing new messages", async () => {
    const queues: string[] = [];
    const page = await iagoPage((p) =>
      p.on("request", (r) => {
        const q = new URL(r.url()).searchParams.get("queue_id");
        if (r.url().includes("/json/events") && q !== null && !queues.includes(q)) queues.push(q);
      }),
    );
    await until(() => queues.length === 1);
    await say("queues", "before the queue is lost");
    const feed = page.getByRole("log", { name: "Message feed" });
    await feed.getByText("before the queue is lost").waitFor();
    // The server forgets the queue (as after a restart or a timeout).
    const registered = page.waitForRequest((r) => r.url().endsWith("/json/register"));
    await server.running.services.eventQueues.deleteQueue(server.users.iago.id, queues[0]!);
    await registered;
    await say("queues", "after the queue was lost");
    await feed.getByText("after the queue was lost").waitFor({ timeout: 60_000 });
    expect(queues.length).toBe(2);
  }, 240_000);

  it("reconnects after a network drop and shows what was sent meanwhile", async () => {
    let polls = 0;
    const page = await iagoPage((p) =>
      p.on("request", (r) => {
        if (r.url().includes("/json/events")) polls++;
      }),
    );
    const feed = page.getByRole("log", { name: "Message feed" });
    await until(() => polls > 0);
    await page.context().setOffline(true);
    // The long poll in flight still gets this one; the next poll fails.
    await say("network", "the last message before the drop");
    await page.getByRole("status").filter({ hasText: "Connection lost. Reconnecting…" }).waitFor();
    await say("network", "sent while you were offline");
    await page.context().setOffline(false);
    await feed.getByText("sent while you were offline").waitFor({ timeout: 60_000 });
    await page.getByText("Connection lost. Reconnecting…").waitFor({ state: "detached" });
  }, 240_000);

  it("loads a view whose first load failed again, on Retry", async () => {
    await say("retry", "shown on the second try");
    let failed = false;
    const page = await iagoPage((p) => {
      void p.route(/\/json\/messages\?/, async (route) => {
        if (failed || route.request().method() !== "GET") return route.continue();
        failed = true;
        return route.abort("internetdisconnected");
      });
    });
    await page.getByRole("alert").filter({ hasText: "Cannot load messages." }).waitFor();
    await page.getByRole("button", { name: "Retry" }).click();
    const feed = page.getByRole("log", { name: "Message feed" });
    await feed.getByText("shown on the second try").waitFor();
    await page.getByRole("alert").filter({ hasText: "Cannot load messages." }).waitFor({ state: "detached" });
  }, 120_000);

  it("edits your own message and shows its edit history", async () => {
    const page = await iagoPage();
    await page.getByLabel("Stream", { exact: true }).fill("Denmark");
    await page.getByLabel("Topic", { exact: true }).fill("edits");
    await page.getByLabel("Message", { exact: true }).fill("first draft");
    await page.getByRole("button", { name: "Send" }).click();
    const id = await page.locator("article", { hasText: "first draft" }).getAttribute("data-message-id");
    const mine = page.locator(`article[data-message-id="${id}"]`);
    await mine.getByRole("button", { name: "Edit message" }).click();
    await mine.getByLabel("Edit message content").fill("second *draft*");
    await mine.getByRole("button", { name: "Save" }).click();
    const edited = mine;
    await edited.locator(".content em").waitFor();
    await edited.getByRole("button", { name: "Show edit history" }).click();
    const history = edited.getByRole("region", { name: "Edit history" });
    await history.locator(".history-entry").nth(1).waitFor();
    await expect(history.locator(".history-entry .content").allTextContents()).resolves.toEqual([
      "first draft",
      "second draft",
    ]);
  }, 240_000);

  it("suggests people and bots after @ and inserts the mention", async () => {
    const page = await iagoPage();
    const message = page.getByLabel("Message", { exact: true });
    await message.click();
    await message.pressSequentially("Hi @ham");
    const list = page.getByRole("listbox", { name: "Mention suggestions" });
    await expect(list.getByRole("option").allTextContents()).resolves.toEqual([
      "King Hamlet hamlet@zulip.com",
    ]);
    await message.press("Enter");
    await expect(message.inputValue()).resolves.toBe("Hi @**King Hamlet** ");
    await message.fill("@webh");
    await message.press("End");
    await message.pressSequentially("o");
    await expect(list.getByRole("option").allTextContents()).resolves.toEqual([
      "Zulip Webhook Bot bot webhook-bot@zulip.com",
    ]);
  }, 240_000);

  it("loads older messages when scrolling up", async () => {
    for (let i = 0; i < 70; i++) await say("backlog", `backlog message ${i}`);
    // Nothing unread: the stream opens at its newest message.
    await server.api.post("/api/v1/mark_all_as_read", { as: server.users.iago, params: {} });
    const page = await iagoPage();
    const sidebar = page.getByRole("navigation", { name: "Streams" });
    await sidebar.getByRole("link", { name: "#Denmark" }).click();
    const feed = page.getByRole("log", { name: "Message feed" });
    await feed.getByText("backlog message 69", { exact: true }).waitFor();
    await expect(feed.getByText("backlog message 0", { exact: true }).count()).resolves.toBe(0);
    // Scrolling to the top again and again, as a reader would, reaches the beginning.
    const beginning = feed.getByText("This is the beginning.");
    for (let i = 0; i < 100 && (await beginning.count()) === 0; i++) {
      await feed.evaluate((el) => {
        (el as unknown as { scrollTop: number }).scrollTop = 0;
      });
      await new Promise((r) => setTimeout(r, 100));
    }
    await beginning.waitFor();
    await feed.getByText("backlog message 0", { exact: true }).waitFor();
  }, 240_000);

  it("counts unread messages per stream, leaving out muted topics", async () => {
    const { iago, hamlet, othello } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: {
        subscriptions: [{ name: "Denmark" }, { name: "Verona" }],
        principals: [othello.email, hamlet.email],
      },
    });
    await server.api.patch("/api/v1/users/me/subscriptions/muted_topics", {
      as: othello,
      params: { stream: "Denmark", topic: "noise", op: "add" },
    });
    const post = (to: string, topic: string, content: string) =>
      server.api.post("/api/v1/messages", { as: hamlet, params: { type: "stream", to, topic, content } });
    await post("Verona", "flood", "elsewhere");
    const page = await fx.page();
    await signIn(page, server.url, othello.email, "othello@zulip.com-password");
    // With #Verona open, what arrives in #Denmark stays unread.
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Verona" }).click();
    await page.getByRole("log", { name: "Message feed" }).getByText("elsewhere").waitFor();
    for (let i = 0; i < 5; i++) await post("Denmark", "count", `counted ${i}`);
    for (let i = 0; i < 3; i++) await post("Denmark", "noise", `muted ${i}`);
    const denmark = page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Denmark" });
    await denmark.locator(".badge", { hasText: "5" }).waitFor();
    await expect(denmark.locator(".badge").textContent()).resolves.toBe("5");
    await expect(denmark.getAttribute("aria-label")).resolves.toBeNull();
    await expect(denmark.locator(".badge").getAttribute("aria-label")).resolves.toBe("5 unread");

    // Opening the stream shows its messages, which marks them read (on the server too).
    await denmark.click();
    await page.getByRole("log", { name: "Message feed" }).getByText("counted 4").waitFor();
    await denmark.locator(".badge").waitFor({ state: "detached" });
    // The badge goes at once; the server learns it from the app's flags request, a moment later.
    const readFlags = async (): Promise<boolean[]> => {
      const res = await server.api.get("/api/v1/messages", {
        as: othello,
        params: {
          anchor: "newest",
          num_before: 10,
          num_after: 0,
          narrow: [
            { operator: "stream", operand: "Denmark" },
            { operator: "topic", operand: "count" },
          ],
        },
      });
      return res.body.messages.map((m: { flags: string[] }) => m.flags.includes("read"));
    };
    let flags = await readFlags();
    for (let i = 0; i < 600 && flags.includes(false); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      flags = await readFlags();
    }
    expect(flags).toEqual([true, true, true, true, true]);
  }, 240_000);

  it("sends a private message from the compose box", async () => {
    const page = await iagoPage();
    await page.getByLabel("Message type").selectOption("private");
    await page.getByLabel("To", { exact: true }).fill(server.users.cordelia.email);
    await page.getByLabel("Message", { exact: true }).fill("a word in private");
    await page.getByRole("button", { name: "Send" }).click();
    const mine = page
      .getByRole("log", { name: "Message feed" })
      .locator("article", { hasText: "a word in private" });
    await mine.waitFor();
    await expect(mine.locator(".recipient").textContent()).resolves.toBe(
      "Private with Cordelia, Lear's daughter",
    );
  }, 240_000);
});
