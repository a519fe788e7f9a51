/** Issue 24's missing features, each flow on a desktop and on a 390 px phone. */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, messageAction, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const LAYOUTS = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

describeBrowser("chat features in Chromium", () => {
  const fx = new BrowserFixture("chat-features-test");
  let server: TestServer;

  const post = (as: TestUser, to: string, topic: string, content: string) =>
    server.api.post("/api/v1/messages", { as, params: { type: "stream", to, topic, content } });
  const feedOf = (page: Page) => page.getByRole("log", { name: "Message feed" });
  async function iago(viewport: { width: number; height: number }): Promise<Page> {
    const page = await fx.signedIn(server.users.iago.email, undefined, viewport);
    page.setDefaultTimeout(60_000);
    await feedOf(page).waitFor();
    return page;
  }
  /** The sidebar, opened first on a phone. */
  async function sidebar(page: Page, phone: boolean) {
    if (phone) await page.getByRole("button", { name: "Streams", exact: true }).click();
    return page.getByRole("navigation", { name: "Streams" });
  }

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    const { iago: owner, hamlet } = server.users;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: owner,
      params: { subscriptions: [{ name: "Denmark" }], principals: [owner.email, hamlet.email] },
    });
  }, 120_000);

  afterAll(() => fx.stop());

  for (const [layout, viewport] of LAYOUTS) {
    const phone = layout === "phone";

    it(`searches with Zulip's operators and opens Mentions (${layout})`, async () => {
      const { hamlet } = server.users;
      await post(hamlet, "Denmark", `hay ${layout}`, "a needle in the hay");
      await post(hamlet, "Denmark", `hay ${layout}`, "only hay here");
      await post(hamlet, "Denmark", `calls ${layout}`, `@**Iago** a word (${layout})`);
      const page = await iago(viewport);
      const search = page.getByRole("searchbox", { name: "Search messages" });
      await search.fill(`stream:Denmark topic:"hay ${layout}" needle`);
      await search.press("Enter");
      await page
        .getByRole("heading", { level: 1, name: `Search: stream:Denmark topic:"hay ${layout}" needle` })
        .waitFor();
      await feedOf(page).getByText("a needle in the hay").waitFor();
      await expect(feedOf(page).locator("article").count()).resolves.toBe(1);
      await (await sidebar(page, phone)).getByRole("link", { name: "Mentions" }).click();
      await page.getByRole("heading", { level: 1, name: "Mentions" }).waitFor();
      await feedOf(page).getByText(`a word (${layout})`).waitFor();
      await expect(feedOf(page).getByText("only hay here").count()).resolves.toBe(0);
    }, 90_000);

    it(`creates, leaves and joins streams in the stream browser (${layout})`, async () => {
      const { hamlet } = server.users;
      await server.api.post("/api/v1/users/me/subscriptions", {
        as: hamlet,
        params: { subscriptions: [{ name: `Elsewhere ${layout}` }] },
      });
      const page = await iago(viewport);
      await (await sidebar(page, phone)).getByRole("button", { name: "Browse streams" }).click();
      const dialog = page.getByRole("dialog", { name: "Streams" });
      const create = dialog.getByRole("form", { name: "Create a stream" });
      await create.getByLabel("New stream name").fill(`Made ${layout}`);
      await create.getByLabel("Description").fill("made in the browser");
      await create.getByRole("button", { name: "Create stream" }).click();
      await dialog
        .getByRole("status")
        .filter({ hasText: `Created #Made ${layout}.` })
        .waitFor();
      await dialog.getByRole("button", { name: `Leave Made ${layout}` }).click();
      await dialog.getByRole("button", { name: `Join Made ${layout}` }).waitFor();
      await dialog.getByRole("button", { name: `Join Elsewhere ${layout}` }).click();
      await dialog.getByRole("button", { name: `Leave Elsewhere ${layout}` }).waitFor();
      await dialog.getByRole("button", { name: "Close" }).click();
      await (await sidebar(page, phone)).getByRole("link", { name: `#Elsewhere ${layout}` }).waitFor();
      const subs = await server.api.get("/api/v1/users/me/subscriptions", { as: server.users.iago });
      const names = (subs.body.subscriptions as { name: string }[]).map((s) => s.name);
      expect(names).toContain(`Elsewhere ${layout}`);
      expect(names).not.toContain(`Made ${layout}`);
    }, 90_000);

    it(`stars, quotes and deletes messages (${layout})`, async () => {
      const { hamlet } = server.users;
      await post(hamlet, "Denmark", `actions ${layout}`, `worth keeping (${layout})`);
      const mine = await post(server.users.iago, "Denmark", `actions ${layout}`, `a slip (${layout})`);
      const page = await iago(viewport);
      const keep = feedOf(page).locator("article", { hasText: `worth keeping (${layout})` });
      await messageAction(keep, "Star");
      await keep.getByRole("button", { name: "Unstar" }).waitFor();
      await messageAction(keep, "Quote and reply");
      const message = page.getByLabel("Message", { exact: true });
      await page.waitForFunction(() =>
        (document.getElementById("compose-message") as HTMLTextAreaElement | null)?.value.includes(
          "```quote",
        ),
      );
      expect(await message.inputValue()).toBe(
        `@_**King Hamlet|${hamlet.id}** said:\n\`\`\`quote\nworth keeping (${layout})\n\`\`\`\n`,
      );
      await expect(page.getByLabel("Topic", { exact: true }).inputValue()).resolves.toBe(`actions ${layout}`);
      const slip = feedOf(page).locator(`article[data-message-id="${mine.body.id}"]`);
      await messageAction(slip, "Delete");
      await slip.getByRole("button", { name: "Yes, delete" }).click();
      await slip.waitFor({ state: "detached" });
      await (await sidebar(page, phone)).getByRole("link", { name: "Starred messages" }).click();
      await feedOf(page).getByText(`worth keeping (${layout})`).waitFor();
    }, 90_000);

    it(`uploads files by the button, by dropping and by pasting (${layout})`, async () => {
      const page = await iago(viewport);
      await page.getByLabel("Stream", { exact: true }).fill("Denmark");
      await page.getByLabel("Topic", { exact: true }).fill(`files ${layout}`);
      const message = page.getByLabel("Message", { exact: true });
      const linkOf = (name: string) => new RegExp(`\\[${name}\\]\\(/user_uploads/[^)]+\\)`);
      await page.getByLabel("Attach files").setInputFiles({
        name: `notes-${layout}.txt`,
        mimeType: "text/plain",
        buffer: Buffer.from("minutes of the meeting"),
      });
      await page.waitForFunction(
        (name) => (document.getElementById("compose-message") as HTMLTextAreaElement).value.includes(name),
        `notes-${layout}.txt`,
      );
      // Dropped and pasted files go through the same upload, from a DataTransfer.
      for (const [event, name] of [
        ["drop", `dropped-${layout}.txt`],
        ["paste", `pasted-${layout}.txt`],
      ] as const) {
        await page.evaluate(
          ([type, fileName]) => {
            const data = new DataTransfer();
            data.items.add(new File(["some bytes"], fileName, { type: "text/plain" }));
            const target =
              type === "drop"
                ? document.querySelector("form.compose")!
                : document.getElementById("compose-message")!;
            const e =
              type === "drop"
                ? new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true })
                : new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
            target.dispatchEvent(e);
          },
          [event, name] as const,
        );
        await page.waitForFunction(
          (n) => (document.getElementById("compose-message") as HTMLTextAreaElement).value.includes(n),
          name,
        );
      }
      const text = await message.inputValue();
      for (const name of [`notes-${layout}.txt`, `dropped-${layout}.txt`, `pasted-${layout}.txt`])
        expect(text).toMatch(linkOf(name.replace(/[.-]/g, "\\$&")));
      await message.press("Enter");
      await feedOf(page)
        .getByRole("link", { name: `pasted-${layout}.txt` })
        .waitFor();
    }, 90_000);

    it(`lists people with their presence and shows who is typing (${layout})`, async () => {
      const { hamlet } = server.users;
      const topic = `typing ${layout}`;
      await post(hamlet, "Denmark", topic, "here we go");
      const denmark = (
        await server.api.get("/api/v1/get_stream_id", { as: hamlet, params: { stream: "Denmark" } })
      ).body.stream_id as number;
      const other = await fx.signedIn(hamlet.email, "hamlet@zulip.com-password", DESKTOP);
      const page = await iago(viewport);
      await page.goto(`${server.url}/#narrow/stream/${denmark}-Denmark/topic/${encodeURIComponent(topic)}`);
      await feedOf(page).getByText("here we go").waitFor();
      const people = (await sidebar(page, phone)).getByRole("list", { name: "People" });
      await people
        .getByRole("listitem")
        .filter({ hasText: "King Hamlet" })
        .getByRole("img", { name: "active" })
        .waitFor();
      await people
        .getByRole("listitem")
        .filter({ hasText: "Cordelia, Lear's daughter" })
        .getByRole("img", { name: "offline" })
        .waitFor();
      if (phone) await page.getByRole("button", { name: "Close" }).click();
      await other.getByLabel("Stream", { exact: true }).fill("Denmark");
      await other.getByLabel("Topic", { exact: true }).fill(topic);
      await other.getByLabel("Message", { exact: true }).pressSequentially("I am wri");
      await feedOf(page).getByRole("status").filter({ hasText: "King Hamlet is typing…" }).waitFor();
      await other.getByLabel("Message", { exact: true }).press("Enter");
      await feedOf(page).getByText("I am wri").waitFor();
      await feedOf(page).getByText("King Hamlet is typing…").waitFor({ state: "detached" });
    }, 90_000);

    it(`answers Zulip's keyboard shortcuts (${layout})`, async () => {
      await post(server.users.hamlet, "Denmark", `keys ${layout}`, `press r on me (${layout})`);
      const page = await iago(viewport);
      await feedOf(page).getByText(`press r on me (${layout})`).waitFor();
      await page.locator("body").press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await help.getByText("Select the next / previous message").waitFor();
      await page.keyboard.press("Escape");
      await help.waitFor({ state: "detached" });
      await page.keyboard.press("/");
      await page.locator("#search-box:focus").waitFor();
      await page.keyboard.press("Escape");
      await page.keyboard.press("c");
      await page.locator("#compose-message:focus").waitFor();
      await page.keyboard.press("Escape");
      // k from nothing selects the newest message; r answers it.
      await page.keyboard.press("k");
      await page.locator(":focus", { hasText: `press r on me (${layout})` }).waitFor();
      await page.keyboard.press("r");
      // Focus moves to the compose box once the reply is set up: wait for it, then read the topic.
      await page.locator("#compose-message:focus").waitFor();
      await expect(page.getByLabel("Topic", { exact: true }).inputValue()).resolves.toBe(`keys ${layout}`);
    }, 90_000);
  }
});
