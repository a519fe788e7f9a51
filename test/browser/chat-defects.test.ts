/**
 * The defects issue 24 lists, one test each: every test here failed on the code before its fix.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { parseBotServerConfig } from "../../bots/server/config.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { BrowserFixture, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("chat defects of issue 24, in Chromium", () => {
  const fx = new BrowserFixture("chat-defects-test");
  let server: TestServer;
  const passwordOf = (u: TestUser) => (u.email === "iago@zulip.com" ? undefined : `${u.email}-password`);
  const pageOf = async (u: TestUser, viewport?: { width: number; height: number }) => {
    const page = await fx.signedIn(u.email, passwordOf(u), viewport);
    page.setDefaultTimeout(60_000);
    return page;
  };

  async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await condition()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const post = (as: TestUser, to: string, topic: string, content: string) =>
    server.api.post("/api/v1/messages", { as, params: { type: "stream", to, topic, content } });
  const pm = (as: TestUser, to: TestUser, content: string) =>
    server.api.post("/api/v1/messages", { as, params: { type: "private", to: [to.email], content } });
  const subscribe = (names: string[], who: TestUser[]) =>
    server.api.post("/api/v1/users/me/subscriptions", {
      as: server.users.iago,
      params: { subscriptions: names.map((name) => ({ name })), principals: who.map((u) => u.email) },
    });
  const streamId = async (name: string): Promise<number> =>
    (await server.api.get("/api/v1/get_stream_id", { as: server.users.iago, params: { stream: name } })).body
      .stream_id as number;
  const feedOf = (page: Page) => page.getByRole("log", { name: "Message feed" });
  const sidebarOf = (page: Page) => page.getByRole("navigation", { name: "Streams" });

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago, hamlet, othello, cordelia } = server.users;
    await subscribe(["Denmark"], [iago, hamlet, othello, cordelia]);
  }, 120_000);

  afterAll(() => fx.stop());

  it("lists private messages with different people under their own headers", async () => {
    const { iago, hamlet, cordelia } = server.users;
    await pm(hamlet, iago, "a word from Hamlet");
    await pm(cordelia, iago, "a word from Cordelia");
    const page = await pageOf(iago);
    await sidebarOf(page).getByRole("link", { name: "Private messages" }).click();
    await feedOf(page).getByText("a word from Cordelia").waitFor();
    await expect(feedOf(page).locator(".recipient").allTextContents()).resolves.toEqual([
      "Private with King Hamlet",
      "Private with Cordelia, Lear's daughter",
    ]);
  }, 60_000);

  it("lists a stream's topics from the server, not only those of loaded messages", async () => {
    const { iago, hamlet } = server.users;
    await subscribe(["Topics"], [iago, hamlet]);
    await post(hamlet, "Topics", "quiet corner", "an old message");
    for (let i = 0; i < 55; i++) await post(hamlet, "Topics", "busy", `busy ${i}`);
    await server.api.post("/api/v1/mark_all_as_read", { as: iago, params: {} });
    const page = await pageOf(iago);
    await sidebarOf(page).getByRole("link", { name: "#Topics" }).click();
    await feedOf(page).getByText("busy 54").waitFor();
    await sidebarOf(page)
      .getByRole("list", { name: "Topics in Topics" })
      .getByRole("link", { name: "quiet corner" })
      .waitFor();
  }, 90_000);

  it("opens a stream you are not subscribed to, by its id", async () => {
    const { iago, hamlet } = server.users;
    await subscribe(["Elsinore"], [hamlet]);
    await post(hamlet, "Elsinore", "ghosts", "something is rotten");
    const id = await streamId("Elsinore");
    const page = await pageOf(iago);
    await page.goto(`${server.url}/#narrow/stream/${id}-Elsinore`);
    await feedOf(page).getByText("something is rotten").waitFor();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("#Elsinore");
  }, 60_000);

  it("renders emoji codes as emoji and shows and adds reactions", async () => {
    const { iago, hamlet } = server.users;
    const sent = await post(hamlet, "Denmark", "party", "we won :tada:");
    const id = sent.body.id as number;
    await server.api.post(`/api/v1/messages/${id}/reactions`, { as: hamlet, params: { emoji_name: "tada" } });
    const page = await pageOf(iago);
    const msg = page.locator(`article[data-message-id="${id}"]`);
    await expect(msg.locator(".content").textContent()).resolves.toBe("we won 🎉");
    const reaction = msg.getByRole("button", { name: "tada: 1 reaction, add yours" });
    await reaction.click();
    await msg.getByRole("button", { name: "tada: 2 reactions, remove yours" }).waitFor();
    await msg.getByRole("button", { name: "Add reaction" }).click();
    await msg.getByRole("searchbox", { name: "Search emoji" }).fill("thumbs_up");
    await msg.getByRole("button", { name: "thumbs_up", exact: true }).click();
    await msg.getByRole("button", { name: "thumbs_up: 1 reaction, remove yours" }).waitFor();
    const res = await server.api.get(`/api/v1/messages/${id}`, { as: iago, params: {} });
    const names = (res.body.message.reactions as { emoji_name: string; user_id: number }[])
      .map((r) => `${r.emoji_name}:${r.user_id}`)
      .sort();
    expect(names).toEqual([`tada:${hamlet.id}`, `tada:${iago.id}`, `thumbs_up:${iago.id}`].sort());
  }, 60_000);

  it("opens a view at the first unread message and marks read only what was seen", async () => {
    const { othello, hamlet } = server.users;
    await subscribe(["Unread"], [othello, hamlet]);
    await server.api.post("/api/v1/mark_all_as_read", { as: othello, params: {} });
    const ids: number[] = [];
    for (let i = 0; i < 70; i++) ids.push((await post(hamlet, "Unread", "pile", `pile ${i}`)).body.id);
    const page = await pageOf(othello);
    await sidebarOf(page).getByRole("link", { name: "#Unread" }).click();
    await feedOf(page).getByText("pile 0", { exact: true }).waitFor();
    const flagsOf = async (id: number): Promise<string[]> =>
      (await server.api.get(`/api/v1/messages/${id}`, { as: othello, params: {} })).body.message.flags;
    await until(async () => (await flagsOf(ids[0]!)).includes("read"), "the first unread to be marked read");
    expect(await flagsOf(ids[69]!)).not.toContain("read");
  }, 90_000);

  it("leaves muted topics out of All messages and mutes and unmutes topics from the sidebar", async () => {
    const { cordelia, hamlet } = server.users;
    await post(hamlet, "Denmark", "noisy topic", "chatter nobody wants");
    await post(hamlet, "Denmark", "calm topic", "something worth reading");
    await server.api.patch("/api/v1/users/me/subscriptions/muted_topics", {
      as: cordelia,
      params: { stream: "Denmark", topic: "noisy topic", op: "add" },
    });
    const page = await pageOf(cordelia);
    await feedOf(page).getByText("something worth reading").waitFor();
    await expect(feedOf(page).getByText("chatter nobody wants").count()).resolves.toBe(0);
    await sidebarOf(page).getByRole("link", { name: "#Denmark" }).click();
    const topics = sidebarOf(page).getByRole("list", { name: "Topics in Denmark" });
    await topics.getByRole("button", { name: "Unmute topic noisy topic" }).click();
    await topics.getByRole("button", { name: "Mute topic calm topic" }).click();
    await topics.getByRole("button", { name: "Unmute topic calm topic" }).waitFor();
    const muted = async () =>
      (
        (await server.api.post("/api/v1/register", { as: cordelia, params: {} })).body.muted_topics as [
          string,
          string,
        ][]
      ).map(([, topic]) => topic);
    await until(async () => JSON.stringify(await muted()) === JSON.stringify(["calm topic"]), "muting");
  }, 60_000);

  it("suggests private-message recipients by name", async () => {
    const { iago, othello } = server.users;
    const page = await pageOf(iago);
    await page.getByLabel("Message type").selectOption("private");
    const to = page.getByRole("combobox", { name: "To" });
    await to.pressSequentially("othe");
    await page.getByRole("listbox", { name: "Recipient suggestions" }).getByRole("option").first().waitFor();
    await to.press("Enter");
    await page.getByRole("button", { name: "Remove Othello, the Moor of Venice" }).waitFor();
    await page.getByLabel("Message", { exact: true }).fill("hello by name");
    await page.getByRole("button", { name: "Send" }).click();
    await feedOf(page).getByText("hello by name").waitFor();
    const res = await server.api.get("/api/v1/messages", {
      as: othello,
      params: {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: [{ operator: "is", operand: "private" }],
      },
    });
    expect(res.body.messages[0].content).toBe("<p>hello by name</p>");
  }, 60_000);

  it("sends with Enter, makes a new line with Shift+Enter and says so", async () => {
    const { iago } = server.users;
    const page = await pageOf(iago);
    await page.getByLabel("Stream", { exact: true }).fill("Denmark");
    await page.getByLabel("Topic", { exact: true }).fill("keys");
    const message = page.getByLabel("Message", { exact: true });
    await message.click();
    await message.pressSequentially("line one");
    await message.press("Shift+Enter");
    await message.pressSequentially("line two");
    await expect(message.inputValue()).resolves.toBe("line one\nline two");
    await page.getByText("Enter to send, Shift+Enter for a new line").waitFor();
    await message.press("Enter");
    await feedOf(page).getByText("line two").waitFor();
    // The box empties when the server has answered the send, which may be after the event shows it.
    await page.waitForFunction(
      () => (document.getElementById("compose-message") as HTMLTextAreaElement | null)?.value === "",
    );
  }, 60_000);

  it("highlights messages that mention you", async () => {
    const { iago, hamlet } = server.users;
    await post(hamlet, "Denmark", "mentions", "@**Iago** please look");
    await post(hamlet, "Denmark", "mentions", "nobody in particular");
    const page = await pageOf(iago);
    const mentioned = feedOf(page).locator("article.mentioned");
    await feedOf(page).getByText("nobody in particular").waitFor();
    await expect(mentioned.locator(".content").allTextContents()).resolves.toEqual(["@Iago please look"]);
  }, 60_000);

  it("opens Zulip's #narrow links in the app", async () => {
    const { iago, hamlet } = server.users;
    await post(hamlet, "Denmark", "castle", "the castle topic");
    await post(hamlet, "Denmark", "links", "see #**Denmark>castle**");
    const page = await pageOf(iago);
    await feedOf(page).getByRole("link", { name: "#Denmark > castle" }).click();
    await page.getByRole("heading", { level: 1, name: "#Denmark › castle" }).waitFor();
    await feedOf(page).getByText("the castle topic").waitFor();
    expect(page.context().pages().length).toBe(1);
  }, 60_000);

  it("drops 'Connection lost' as soon as the network is back", async () => {
    const { iago } = server.users;
    let failed = 0;
    let polls = 0;
    const page = await fx.page();
    page.setDefaultTimeout(60_000);
    page.on("request", (r) => {
      if (r.url().includes("/json/events")) polls++;
    });
    page.on("requestfailed", (r) => {
      if (r.url().includes("/json/events")) failed++;
    });
    await page.goto(`${server.url}/login`);
    await page.getByLabel("Email").fill(iago.email);
    await page.getByLabel("Password").fill("iago-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await feedOf(page).waitFor();
    await until(() => polls > 0, "the first poll");
    await page.context().setOffline(true);
    // The long poll in flight ends with this message; the next poll fails.
    await post(server.users.hamlet, "Denmark", "network", "the last message before the drop");
    await page.getByText("Connection lost. Reconnecting…").waitFor();
    // Enough failures that an uncapped doubling back-off would now wait 16 s or more.
    await until(() => failed >= 5, "five failed polls");
    await page.context().setOffline(false);
    // Bounded below the 16 s an uncapped back-off would now wait (the defect), with room for a busy
    // machine: the app retries at once when the browser is back online, or within 5 s at most.
    await page.getByText("Connection lost. Reconnecting…").waitFor({ state: "detached", timeout: 14_000 });
  }, 90_000);

  it("shows settings as a page, not JSON", async () => {
    const page = await pageOf(server.users.iago);
    await page.goto(`${server.url}/settings`);
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  }, 60_000);

  it("groups messages under date separators and shows times on messages", async () => {
    const { iago, hamlet } = server.users;
    await post(hamlet, "Denmark", "dates", "a dated message");
    const page = await pageOf(iago);
    const msg = feedOf(page).locator("article", { hasText: "a dated message" });
    await msg.waitFor();
    await feedOf(page).getByRole("separator", { name: "Today" }).waitFor();
    await expect(msg.locator("time").textContent()).resolves.toMatch(/^\d{1,2}:\d{2}( [AP]M)?$/);
  }, 60_000);

  it("names the view and the unread count in the tab title", async () => {
    const { othello, hamlet } = server.users;
    await server.api.post("/api/v1/mark_all_as_read", { as: othello, params: {} });
    await subscribe(["Titles"], [othello, hamlet]);
    const page = await pageOf(othello);
    await sidebarOf(page).getByRole("link", { name: "#Denmark" }).click();
    await until(async () => (await page.title()) === "#Denmark - Zulip Dev", "the title without unread");
    // Messages elsewhere stay unread while #Denmark is open.
    for (let i = 0; i < 3; i++) await post(hamlet, "Titles", "t", `title ${i}`);
    await until(async () => (await page.title()) === "(3) #Denmark - Zulip Dev", "the title").catch(
      () => undefined,
    );
    expect(await page.title()).toBe("(3) #Denmark - Zulip Dev");
  }, 60_000);

  it("renames, deactivates and reactivates a bot, and masks its API key", async () => {
    const { iago } = server.users;
    const made = await server.api.post("/api/v1/bots", {
      as: iago,
      params: { full_name: "Tidy Bot", short_name: "tidy", bot_type: 1 },
    });
    const key = made.body.api_key as string;
    const page = await pageOf(iago);
    await page.getByRole("link", { name: "Your bots" }).click();
    const card = page.getByRole("listitem", { name: "Tidy Bot" });
    await card.waitFor();
    expect(await page.content()).not.toContain(key);
    await card.getByRole("button", { name: "Show API key" }).click();
    await expect(card.getByLabel("API key").inputValue()).resolves.toBe(key);
    await card.getByRole("button", { name: "Rename" }).click();
    await card.getByLabel("New name").fill("Neat Bot");
    await card.getByRole("button", { name: "Save name" }).click();
    const renamed = page.getByRole("listitem", { name: "Neat Bot" });
    await renamed.getByRole("heading", { name: "Neat Bot" }).waitFor();
    await renamed.getByRole("button", { name: "Deactivate" }).click();
    await renamed.getByRole("button", { name: "Yes, deactivate Neat Bot" }).click();
    await renamed.getByRole("button", { name: "Reactivate" }).waitFor();
    const bots = (await server.api.get("/api/v1/bots", { as: iago, params: {} })).body.bots as {
      user_id: number;
      full_name: string;
    }[];
    expect(bots.find((b) => b.user_id === made.body.user_id)?.full_name).toBe("Neat Bot");
    const user = await server.api.get(`/api/v1/users/${made.body.user_id}`, { as: iago, params: {} });
    expect(user.body.user.is_active).toBe(false);
  }, 60_000);

  it("creates an outgoing-webhook bot that runs a bundled bot from its downloaded botserverrc", async () => {
    const page = await pageOf(server.users.iago);
    await page.getByRole("link", { name: "Your bots" }).click();
    await page.getByRole("button", { name: "Add a new bot" }).click();
    const form = page.getByRole("form", { name: "New bot" });
    await form.getByLabel("Bot type").selectOption("3");
    await form.getByLabel("Name", { exact: true }).fill("Greeter");
    await form.getByLabel("Endpoint URL").fill("http://127.0.0.1:5002/");
    await form.getByLabel("Bundled bot to run").selectOption("helloworld");
    await form.getByRole("button", { name: "Create bot" }).click();
    const card = page.getByRole("listitem", { name: "Greeter" });
    const download = page.waitForEvent("download");
    await card.getByRole("link", { name: "Download botserverrc section" }).click();
    const file = await (await download).path();
    const config = parseBotServerConfig(fs.readFileSync(file, "utf8"));
    expect([...config.keys()]).toEqual(["helloworld"]);
    expect(config.get("helloworld")?.email).toBe("greeter-bot@zulip.com");
  }, 60_000);

  it("gives the Bitbucket integration cards different titles", async () => {
    const page = await pageOf(server.users.iago);
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByLabel("Search integrations").fill("bitbucket");
    await page.locator(".directory .card a").nth(1).waitFor();
    const titles = await page.locator(".directory .card a").allTextContents();
    expect(titles.length).toBeGreaterThan(1);
    expect(new Set(titles).size).toBe(titles.length);
  }, 60_000);
});
