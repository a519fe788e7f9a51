/**
 * Takes the README's screenshots of the web app (docs/screenshots/*.png) with Debian's Chromium:
 * starts a server on a temporary store, fills it with a short conversation, a GitHub push and a
 * few bots, and photographs the chat view, Your bots, the GitHub integration page, a bot's
 * deliveries (desktop and phone), the template editor, the stream browser, the keyboard shortcuts,
 * Settings with an invitation link and the page that link opens.
 *
 *   node bin/run-ts.js scripts/web-screenshots.ts [--out docs/screenshots]
 */
import fs from "node:fs";
import { signIn } from "../test/browser/browser.js";
import { OWNER_PASSWORD } from "../test/helpers/test-server.js";
import { startScreenshots } from "./screenshot-kit.js";

const kit = await startScreenshots("web-screenshots", "Photographs the web app into DIR");
const { server, browser, say, shot } = kit;
const { api, users } = server;
const { iago, hamlet, othello, webhookBot } = users;

await say(hamlet, "engineering", "release 2.4", "The **2.4** branch is cut. Anything still missing?");
const notes = await say(
  othello,
  "engineering",
  "release 2.4",
  "Only the migration notes; I'll write them today. :writing_hand:",
);
await api.post(`/api/v1/messages/${notes.body.id}/reactions`, { as: hamlet, params: { emoji_name: "tada" } });
await api.post(`/api/v1/messages/${notes.body.id}/reactions`, { as: iago, params: { emoji_name: "tada" } });
await api.post(`/api/v1/messages/${notes.body.id}/reactions`, {
  as: hamlet,
  params: { emoji_name: "thumbs_up" },
});
await say(
  iago,
  "engineering",
  "release 2.4",
  "Thanks! Checklist:\n\n* [x] changelog\n* [ ] migration notes\n* [ ] announce in #**releases**\n\n```sh\nnpm run bench -- --quick\n```",
);
await say(hamlet, "Denmark", "castle", "@**Iago** have you seen the ghost on the battlements?");
await say(othello, "releases", "2.3", "2.3.1 is out with the webhook fixes.");
const push = fs.readFileSync(new URL("../integrations/github/fixtures/push__1_commit.json", import.meta.url));
await fetch(`${server.url}/api/v1/external/github?api_key=${webhookBot.apiKey}&stream=engineering`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-github-event": "push" },
  body: push,
});
// The delivery log's screenshots: a push to a stream that does not exist and one without its event header.
await fetch(`${server.url}/api/v1/external/github?api_key=${webhookBot.apiKey}&stream=deploys`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-github-event": "push" },
  body: push,
});
await fetch(`${server.url}/api/v1/external/github?api_key=${webhookBot.apiKey}&stream=engineering`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: push,
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 760 } })).newPage();
  await signIn(page, server.url, iago.email, OWNER_PASSWORD);
  await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#engineering" }).click();
  await page.getByText("The 2.4 branch is cut").waitFor();
  // The mention typeahead, open.
  const compose = page.getByLabel("Message", { exact: true });
  await compose.fill("Looks good: ship it, ");
  await compose.pressSequentially("@oth");
  await page.getByRole("listbox", { name: "Mention suggestions" }).waitFor();
  await shot(page, "chat.png");

  await page.getByRole("link", { name: "Your bots" }).click();
  await page.getByRole("button", { name: "Add a new bot" }).click();
  await page.getByLabel("Bot type").selectOption({ label: "Outgoing webhook" });
  await page.getByLabel("Name", { exact: true }).fill("Helloworld");
  await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:5002/");
  await page.getByRole("button", { name: "Create bot" }).click();
  await page.getByRole("listitem", { name: "Helloworld" }).waitFor();
  await shot(page, "your-bots.png");

  await page.getByRole("link", { name: "Integrations" }).click();
  await page.getByRole("link", { name: "GitHub", exact: true }).click();
  await page.getByLabel("Stream", { exact: true }).fill("engineering");
  await page.getByRole("button", { name: "Send a test payload" }).click();
  await page.getByRole("status", { name: "Test payload result" }).waitFor();
  await page.setViewportSize({ width: 1280, height: 1150 });
  await page.evaluate("document.querySelector('.page').scrollTop = 0");
  await shot(page, "integration-github.png");

  // Your bots → Deliveries, the failed push opened.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.getByRole("link", { name: "Your bots" }).click();
  const hookCard = page.getByRole("listitem", { name: webhookBot.fullName });
  await hookCard.getByRole("button", { name: "Deliveries" }).click();
  await page.getByRole("button", { name: /, failed$/ }).click();
  await page.locator(".delivery-detail").waitFor();
  await hookCard.scrollIntoViewIfNeeded();
  await shot(page, "deliveries.png");

  // The template integration's editor with its live preview.
  await page.goto(`${server.url}/integrations/template`);
  const editor = page.getByRole("region", { name: "Template editor" });
  await page.getByLabel("Preview body").waitFor();
  await editor.scrollIntoViewIfNeeded();
  await shot(page, "template-editor.png");

  // The stream browser and the keyboard shortcuts, over the chat.
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto(`${server.url}/`);
  await page
    .getByRole("navigation", { name: "Streams" })
    .getByRole("button", { name: "Browse streams" })
    .click();
  await page
    .getByRole("dialog", { name: "Streams" })
    .getByRole("button", { name: "Leave releases" })
    .waitFor();
  await shot(page, "stream-browser.png");
  await page.keyboard.press("Escape");
  await page.locator("body").press("?");
  await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
  await shot(page, "shortcuts.png");
  await page.keyboard.press("Escape");

  // Settings: an invitation link made; then the page it opens, in a browser with no session.
  await page.goto(`${server.url}/settings`);
  await page
    .getByRole("form", { name: "New invitation" })
    .getByRole("button", { name: "Create invitation link" })
    .click();
  const link = await page.getByLabel("Invitation link").inputValue();
  await page.getByLabel("Invitation link").scrollIntoViewIfNeeded();
  await shot(page, "settings-invite.png");
  const guest = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await guest.goto(link);
  await guest.getByRole("heading", { name: "Join Elsinore" }).waitFor();
  await guest.getByLabel("Email").fill("rosalind@example.com");
  await guest.getByLabel("Full name").fill("Rosalind");
  await shot(guest, "join-phone.png");

  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signIn(phone, server.url, hamlet.email, "hamlet@zulip.com-password");
  await phone.getByText("The 2.4 branch is cut").waitFor();
  await shot(phone, "chat-phone.png");

  const iagoPhone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signIn(iagoPhone, server.url, iago.email, OWNER_PASSWORD);
  await iagoPhone.goto(`${server.url}/settings/bots`);
  await iagoPhone
    .getByRole("listitem", { name: webhookBot.fullName })
    .getByRole("button", { name: "Deliveries" })
    .click();
  await iagoPhone.getByRole("button", { name: /, rejected$/ }).click();
  await iagoPhone.locator(".delivery-detail").scrollIntoViewIfNeeded();
  await shot(iagoPhone, "deliveries-phone.png");
} finally {
  await kit.close();
}
