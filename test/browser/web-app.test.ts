import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { OWNER_PASSWORD } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, hasChromium, printSkipNotice, signIn } from "./browser.js";

const HAMLET_PASSWORD = "hamlet@zulip.com-password";
const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("web app in Chromium", () => {
  const fx = new BrowserFixture("web-app-test");
  let server: TestServer;
  const newPage = (viewport?: { width: number; height: number }) => fx.page(viewport);

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago, hamlet } = server.users;
    // #Denmark with iago and hamlet in it.
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [iago.email, hamlet.email] },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  it("signs in, refuses a wrong password, and signs out ending the session on the server", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/login");

    await page.getByLabel("Email").fill(server.users.hamlet.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe(
      "Your username or password is incorrect",
    );

    await page.getByLabel("Password").fill(HAMLET_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("button", { name: "Log out" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByRole("link", { name: "Your bots" }).waitFor();
    await page.getByRole("link", { name: "Integrations" }).waitFor();

    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === "sessionid")!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");
    const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const before = await fetch(`${server.url}/json/users/me`, { headers: { cookie: cookieHeader } });
    expect(before.status).toBe(200);

    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    // The old cookie is worthless now: the session was deleted on the server.
    const after = await fetch(`${server.url}/json/users/me`, { headers: { cookie: cookieHeader } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      result: "error",
      msg: "Not logged in: API authentication or user session required",
      code: "UNAUTHORIZED",
    });
  }, 60_000);

  it("shows a message sent in one browser live in another", async () => {
    const iagoPage = await newPage();
    const hamletPage = await newPage();
    await signIn(iagoPage, server.url, server.users.iago.email, OWNER_PASSWORD);
    await signIn(hamletPage, server.url, server.users.hamlet.email, HAMLET_PASSWORD);
    await iagoPage.getByRole("log", { name: "Message feed" }).waitFor();

    await hamletPage.getByLabel("Stream", { exact: true }).fill("Denmark");
    await hamletPage.getByLabel("Topic", { exact: true }).fill("castle");
    await hamletPage.getByLabel("Message", { exact: true }).fill("To be, or not to be");
    await hamletPage.getByRole("button", { name: "Send" }).click();

    const feed = iagoPage.getByRole("log", { name: "Message feed" });
    await feed.getByText("To be, or not to be").waitFor({ timeout: 60_000 });
    await expect(feed.getByRole("link", { name: "#Denmark › castle" }).count()).resolves.toBe(1);
    // The sender's own feed shows it too, and the compose box is empty again.
    await hamletPage.getByRole("log", { name: "Message feed" }).getByText("To be, or not to be").waitFor();
    await hamletPage.waitForFunction(
      () => (document.getElementById("compose-message") as HTMLTextAreaElement | null)?.value === "",
    );
  }, 60_000);

  it("shows Markdown rendered and a message with <img onerror> runs nothing", async () => {
    const { hamlet } = server.users;
    await server.api.post("/api/v1/messages", {
      as: hamlet,
      params: {
        type: "stream",
        to: "Denmark",
        topic: "markdown",
        content:
          'Some **bold words** and <img src=x onerror="window.__pwned = 1"> <script>window.__pwned = 2</script>',
      },
    });
    const page = await newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    const feed = page.getByRole("log", { name: "Message feed" });
    const message = feed.locator("article", { hasText: "Some bold words" });
    await message.waitFor();
    await expect(message.locator(".content strong").textContent()).resolves.toBe("bold words");
    // The HTML was shown as text, not turned into elements.
    await expect(message.locator("img").count()).resolves.toBe(0);
    await expect(message.locator("script").count()).resolves.toBe(0);
    await expect(message.locator(".content").textContent()).resolves.toBe(
      'Some bold words and <img src=x onerror="window.__pwned = 1"> <script>window.__pwned = 2</script>',
    );
    await expect(page.evaluate("typeof window.__pwned")).resolves.toBe("undefined");
    expect(errors).toEqual([]);
  }, 60_000);

  it("creates an incoming-webhook bot, shows its key, builds a GitHub URL and shows the pushed message", async () => {
    const page = await newPage();
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    await page.getByRole("link", { name: "Your bots" }).click();
    await page.getByRole("button", { name: "Add a new bot" }).click();
    await page.getByLabel("Bot type").selectOption({ label: "Incoming webhook" });
    await page.getByLabel("Name", { exact: true }).fill("GitHub notifier");
    await page.getByRole("button", { name: "Create bot" }).click();

    const card = page.getByRole("listitem", { name: "GitHub notifier" });
    await card.waitFor();
    const email = await card.getByLabel("Bot email").inputValue();
    await card.getByRole("button", { name: "Show API key" }).click();
    const key = await card.getByLabel("API key").inputValue();
    expect(email).toBe("github-notifier-bot@zulip.com");
    const stored = await server.running.services.users.byEmail(email);
    expect(stored?.botType).toBe(2);
    expect(key).toBe(stored?.apiKey);

    // The integration page builds the URL to paste into GitHub.
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByLabel("Search integrations").fill("git");
    await page.getByRole("link", { name: "GitHub", exact: true }).click();
    await page.getByRole("heading", { name: "GitHub", level: 1 }).first().waitFor();
    await page.getByLabel("Bot", { exact: true }).selectOption({ label: `GitHub notifier (${email})` });
    await page.getByLabel("Stream", { exact: true }).fill("Denmark");
    const url = await page.getByLabel("Integration URL").inputValue();
    expect(url).toBe(`${server.url}/api/v1/external/github?api_key=${key}&stream=Denmark`);
    // The header form: the URL without the key, the Authorization header to send with it.
    await page.getByLabel("Send the bot's key").selectOption("header");
    expect(await page.getByLabel("Integration URL").inputValue()).toBe(
      `${server.url}/api/v1/external/github?stream=Denmark`,
    );
    expect(await page.locator("#integration-header").textContent()).toBe(`Authorization: Bearer ${key}`);
    await page.getByLabel("Send the bot's key").selectOption("query");

    // GitHub posts a push to that URL.
    const fixture = fs.readFileSync(
      new URL("../../integrations/github/fixtures/push__1_commit.json", import.meta.url),
    );
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "push" },
      body: fixture,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "success", msg: "" });

    await page.getByRole("link", { name: "Chat" }).click();
    const feed = page.getByRole("log", { name: "Message feed" });
    const pushed = feed.locator("article", { hasText: "Fix the greeting" });
    await pushed.waitFor({ timeout: 60_000 });
    await expect(pushed.locator(".sender").textContent()).resolves.toBe("GitHub notifier");
    await expect(feed.getByRole("link", { name: "#Denmark › hello-world / main" }).count()).resolves.toBe(1);
  }, 90_000);

  it("creates outgoing and embedded bots, changes a URL, regenerates a key, saves a signing secret", async () => {
    const page = await newPage();
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    await page.getByRole("link", { name: "Your bots" }).click();

    await page.getByRole("button", { name: "Add a new bot" }).click();
    await page.getByLabel("Bot type").selectOption({ label: "Outgoing webhook" });
    await page.getByLabel("Name", { exact: true }).fill("Echo");
    await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:5002/");
    await page.getByRole("button", { name: "Create bot" }).click();
    const echo = page.getByRole("listitem", { name: "Echo" });
    await echo.waitFor();
    const stored = (await server.running.services.users.byEmail("echo-bot@zulip.com"))!;
    const [service] = await server.running.services.users.servicesOf(stored.id);
    await echo.getByRole("button", { name: "Show API key" }).click();
    await expect(echo.getByLabel("botserverrc section").inputValue()).resolves.toBe(
      `[helloworld]\nemail=echo-bot@zulip.com\nkey=${stored.apiKey}\nsite=${server.url}\ntoken=${service!.token}\n`,
    );
    await expect(echo.getByRole("link", { name: "Download zuliprc" }).getAttribute("download")).resolves.toBe(
      "zuliprc",
    );
    await expect(echo.getByLabel("Endpoint URL").inputValue()).resolves.toBe("http://127.0.0.1:5002/");
    await echo.getByLabel("Endpoint URL").fill("http://127.0.0.1:5003/");
    await echo.getByRole("button", { name: "Save URL" }).click();
    await echo.getByRole("status").filter({ hasText: "Endpoint URL saved." }).waitFor();
    const [moved] = await server.running.services.users.servicesOf(stored.id);
    expect(moved!.baseUrl).toBe("http://127.0.0.1:5003/");
    await echo.getByRole("button", { name: "Regenerate API key" }).click();
    await echo.getByRole("status").filter({ hasText: "New API key generated" }).waitFor();
    const newKey = (await server.running.services.users.byEmail("echo-bot@zulip.com"))!.apiKey;
    expect(newKey).not.toBe(stored.apiKey);
    await expect(echo.getByLabel("API key").inputValue()).resolves.toBe(newKey);

    // Signing secrets: shown, rotated with an overlap (old and new listed), the old one retired.
    const signing = echo.getByRole("region", { name: "Signing secrets" });
    await signing.getByRole("button", { name: "Show signing secrets" }).click();
    await signing.getByText("(current)").waitFor();
    const [first] = await server.running.services.signingSecrets.secrets(stored.id);
    await expect(signing.locator("li code").allTextContents()).resolves.toEqual([first!.secret]);
    await signing.getByRole("button", { name: "Rotate signing secret" }).click();
    await signing.getByText(/\(old: valid until/).waitFor();
    const rotated = await server.running.services.signingSecrets.secrets(stored.id);
    expect(rotated.map((r) => r.secret)[1]).toBe(first!.secret);
    await expect(signing.locator("li code").allTextContents()).resolves.toEqual(rotated.map((r) => r.secret));
    await signing.getByRole("button", { name: "Retire old secret now" }).click();
    await signing.getByRole("button", { name: "Retire old secret now" }).waitFor({ state: "detached" });
    await expect(signing.locator("li").count()).resolves.toBe(1);
    expect((await server.running.services.signingSecrets.secrets(stored.id)).map((r) => r.secret)).toEqual([
      rotated[0]!.secret,
    ]);

    await page.getByRole("button", { name: "Add a new bot" }).click();
    await page.getByLabel("Bot type").selectOption({ label: "Embedded" });
    await page.getByLabel("Name", { exact: true }).fill("Converter");
    await page.getByLabel("Bot", { exact: true }).fill("converter");
    await page.getByRole("button", { name: "Create bot" }).click();
    await page.getByRole("listitem", { name: "Converter" }).waitFor();
    expect((await server.running.services.users.byEmail("converter-bot@zulip.com"))?.botType).toBe(4);

    const hook = page.getByRole("listitem", { name: "Zulip Webhook Bot" });
    await hook.getByLabel("Secret for").selectOption("github");
    await hook.getByLabel("Signing secret").fill("s3cret");
    await hook.getByRole("button", { name: "Save secret" }).click();
    await hook.getByRole("status").filter({ hasText: "Signing secret saved." }).waitFor();
    await expect(server.running.services.users.botConfig(server.users.webhookBot.id)).resolves.toEqual({
      github_secret: "s3cret",
    });
  }, 60_000);

  it("sends a test payload from the integration page and shows the result", async () => {
    const page = await newPage();
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    await page.goto(`${server.url}/integrations/helloworld`);
    await page.getByLabel("Stream", { exact: true }).fill("Denmark");
    await page.getByLabel("Sample payload").selectOption("case:test_hello_message");
    await page.getByRole("button", { name: "Send a test payload" }).click();
    const result = page.getByRole("status", { name: "Test payload result" });
    await result.waitFor();
    await expect(result.textContent()).resolves.toBe('200 {"result":"success","msg":""}');
  }, 60_000);

  it("fits a 390 px phone screen without horizontal scrolling", async () => {
    const page = await newPage({ width: 390, height: 844 });
    await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
    const overflow = () => page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    await page.getByRole("log", { name: "Message feed" }).waitFor();
    await expect(overflow()).resolves.toBe(0);
    for (const label of ["Stream", "Topic", "Message"]) {
      await expect(page.getByLabel(label, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByRole("button", { name: "Send" }).isVisible()).resolves.toBe(true);
    // The stream list slides over the feed and closes again.
    const streams = page.getByRole("navigation", { name: "Streams" });
    await expect(streams.isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Streams" }).click();
    await streams.getByRole("link", { name: "#Denmark" }).waitFor();
    await expect(overflow()).resolves.toBe(0);
    await streams.getByRole("button", { name: "Close" }).click();
    await streams.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Your bots" }).click();
    await page.getByRole("button", { name: "Add a new bot" }).waitFor();
    await expect(overflow()).resolves.toBe(0);
    await page.goto(`${server.url}/integrations/github`);
    await page.getByLabel("Integration URL").waitFor();
    await expect(overflow()).resolves.toBe(0);
  }, 60_000);
});
