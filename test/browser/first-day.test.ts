/**
 * What a first day in the app found (issue 24, tried by hand as a new team): consecutive messages of
 * one sender grouped, a stream's description under its name, administrators renaming, describing
 * and archiving streams from the stream list, and a phone's message actions opening on a tap
 * instead of filling the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("a first day in Chromium", () => {
  const fx = new BrowserFixture("first-day-test");
  let server: TestServer;

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
  }, 120_000);

  afterAll(() => fx.stop());

  async function subscribe(stream: string, description = ""): Promise<void> {
    const { iago, hamlet } = server.users;
    const res = await server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: stream, description }], principals: [iago.email, hamlet.email] },
    });
    expect(res.status).toBe(200);
  }

  async function send(as: TestServer["users"]["iago"], stream: string, content: string): Promise<number> {
    const res = await server.api.post("/api/v1/messages", {
      as,
      params: { type: "stream", to: stream, topic: "day one", content },
    });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }

  it("groups a sender's consecutive messages under one name and avatar", async () => {
    const { iago, hamlet } = server.users;
    await subscribe("Grouping");
    const first = await send(hamlet, "Grouping", "first of two");
    const second = await send(hamlet, "Grouping", "second of two");
    const other = await send(iago, "Grouping", "an answer");
    const page = await fx.signedIn(iago.email);
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Grouping" }).click();
    const feed = page.getByRole("log", { name: "Message feed" });
    await feed.getByText("an answer").waitFor();
    const article = (id: number) => feed.locator(`article[data-message-id="${id}"]`);
    const shown = async (id: number) => ({
      continued: ((await article(id).getAttribute("class")) ?? "").split(" ").includes("continued"),
      avatar: await article(id).locator(".avatar").textContent(),
      // Shown, or kept for screen readers only (a 1-pixel clip).
      senderShown: ((await article(id).locator(".sender").boundingBox())?.width ?? 0) > 1,
    });
    expect(await shown(first)).toEqual({ continued: false, avatar: "KH", senderShown: true });
    expect(await shown(second)).toEqual({ continued: true, avatar: "", senderShown: false });
    expect(await shown(other)).toEqual({ continued: false, avatar: "I", senderShown: true });
    // Screen readers still hear who wrote each message.
    await expect(article(second).getAttribute("aria-label")).resolves.toBe("Message from King Hamlet");
    await expect(article(second).locator(".sender").textContent()).resolves.toBe("King Hamlet");
  }, 90_000);

  it("shows a stream's description under its name", async () => {
    await subscribe("Described", "Where the castle's plans are kept");
    const page = await fx.signedIn(server.users.hamlet.email, "hamlet@zulip.com-password");
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Described" }).click();
    await page.getByRole("heading", { level: 1, name: "#Described" }).waitFor();
    await page.locator(".stream-description", { hasText: "Where the castle's plans are kept" }).waitFor();
  }, 90_000);

  it("lets an administrator rename, describe and archive a stream from the stream list", async () => {
    await subscribe("Old name");
    const page = await fx.signedIn(server.users.iago.email);
    await page.getByRole("button", { name: "Browse streams" }).click();
    const dialog = page.getByRole("dialog", { name: "Streams" });
    await dialog.getByRole("button", { name: "Settings of Old name" }).click();
    const form = dialog.getByRole("form", { name: "Settings of Old name" });
    await form.getByLabel("Name").fill("New name");
    await form.getByLabel("Description").fill("Renamed on day one");
    await form.getByRole("button", { name: "Save" }).click();
    await dialog.getByRole("status").filter({ hasText: "Saved #New name." }).waitFor();
    const streams = (await server.api.get("/api/v1/streams", { as: server.users.iago })).body.streams as {
      stream_id: number;
      name: string;
      description: string;
    }[];
    const renamed = streams.find((s) => s.name === "New name");
    expect(renamed?.description).toBe("Renamed on day one");
    // The sidebar follows the rename (a stream update event).
    await page
      .getByRole("navigation", { name: "Streams" })
      .getByRole("link", { name: "#New name" })
      .waitFor();

    await dialog.getByRole("button", { name: "Settings of New name" }).click();
    await dialog.getByRole("button", { name: "Archive…" }).click();
    await dialog.getByRole("button", { name: "Archive #New name: everyone is unsubscribed" }).click();
    await dialog.getByRole("status").filter({ hasText: "Archived #New name." }).waitFor();
    const archived = await server.api.get(`/api/v1/streams/${renamed!.stream_id}`, { as: server.users.iago });
    expect(archived.body.stream.is_archived).toBe(true);
  }, 90_000);

  it("offers stream settings to administrators only", async () => {
    await subscribe("Members only look");
    const page = await fx.signedIn(server.users.hamlet.email, "hamlet@zulip.com-password");
    await page.getByRole("button", { name: "Browse streams" }).click();
    const dialog = page.getByRole("dialog", { name: "Streams" });
    await dialog.getByRole("button", { name: "Leave Members only look" }).waitFor();
    await expect(dialog.getByRole("button", { name: /^Settings of / }).count()).resolves.toBe(0);
  }, 90_000);

  it("opens a message's actions on a phone when the message is tapped, not before", async () => {
    const { iago, hamlet } = server.users;
    await subscribe("Phone feed");
    const id = await send(hamlet, "Phone feed", "tap me");
    const page = await fx.signedIn(iago.email, undefined, PHONE);
    await page.getByRole("button", { name: "Streams", exact: true }).click();
    await page
      .getByRole("navigation", { name: "Streams" })
      .getByRole("link", { name: "#Phone feed" })
      .click();
    const message = page
      .getByRole("log", { name: "Message feed" })
      .locator(`article[data-message-id="${id}"]`);
    await message.getByText("tap me").waitFor();
    const actions = message.getByRole("group", { name: "Message actions" });
    expect((await actions.boundingBox())?.height).toBe(0);
    await message.click({ position: { x: 4, y: 4 } });
    await actions.getByRole("button", { name: "Quote and reply" }).waitFor({ state: "visible" });
    expect((await actions.boundingBox())?.height).toBeGreaterThan(0);
  }, 90_000);

  it("shows times on a 24-hour clock and stops typing notices once chosen in Settings", async () => {
    const { hamlet } = server.users;
    await subscribe("Clock");
    const id = await send(hamlet, "Clock", "what time is it?");
    const page = await fx.signedIn(hamlet.email, "hamlet@zulip.com-password");
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Clock" }).click();
    const stamp = page.locator(`article[data-message-id="${id}"] .meta time`);
    await expect(stamp.textContent()).resolves.toMatch(/[AP]M$/);

    await page.getByRole("link", { name: "Settings" }).click();
    const display = page.getByRole("region", { name: "Display and privacy" });
    await display.getByLabel("Show times on a 24-hour clock").check();
    await display.getByLabel("Let others see when I am typing in a stream").uncheck();
    // Both saved on the server (each box moves at once; its PATCH follows).
    const stored = async () => {
      const reg = await server.api.post("/api/v1/register", {
        as: hamlet,
        params: { fetch_event_types: ["user_settings"] },
      });
      const settings = reg.body.user_settings as Record<string, unknown>;
      return [settings["twenty_four_hour_time"], settings["send_stream_typing_notifications"]];
    };
    for (let i = 0; i < 200 && JSON.stringify(await stored()) !== "[true,false]"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await stored()).toEqual([true, false]);

    await page.getByRole("link", { name: "Chat" }).click();
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#Clock" }).click();
    await expect(stamp.textContent()).resolves.toMatch(/^\d{1,2}:\d{2}$/);
    // Typing then sending: a typing notice would go out before the message does.
    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posted.push(new URL(r.url()).pathname);
    });
    await page.getByRole("textbox", { name: "Topic", exact: true }).fill("now");
    const box = page.getByRole("textbox", { name: "Message", exact: true });
    await box.pressSequentially("quiet typing");
    // The web app calls the API under /json/ with its session.
    const sent = page.waitForRequest(
      (r) => r.method() === "POST" && new URL(r.url()).pathname === "/json/messages",
    );
    await box.press("Enter");
    await sent;
    expect(posted).toEqual(["/json/messages"]);
  }, 90_000);
});
