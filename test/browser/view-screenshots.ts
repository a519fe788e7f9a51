/**
 * Takes the README's screenshots of the chat's views (docs/screenshots/recent.png,
 * recent-phone.png, drafts.png) with Debian's Chromium: a server on a temporary store, a few
 * conversations and drafts, then Recent conversations (desktop and phone) and Drafts.
 *
 *   node bin/run-ts.js test/browser/view-screenshots.ts [--out docs/screenshots]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestUser } from "../helpers/test-server.js";
import { CHROMIUM, ensureWebBuilt, hasChromium, launchBrowser, signIn } from "./browser.js";

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const outDir = path.resolve(
  outIndex === -1 ? "docs/screenshots" : (args[outIndex + 1] ?? "docs/screenshots"),
);
if (!hasChromium()) {
  console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  process.exit(1);
}

ensureWebBuilt();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "view-screenshots-"));
const server = await startTestServer({ config: { dataDir, realmName: "Elsinore" } });
const { api, users } = server;
const { iago, hamlet, othello, cordelia } = users;

await api.post("/api/v1/users/me/subscriptions", {
  as: iago,
  params: {
    subscriptions: [{ name: "Denmark" }, { name: "engineering" }, { name: "releases" }],
    principals: [iago.email, hamlet.email, othello.email, cordelia.email],
  },
});
const say = (as: TestUser, to: string, topic: string, content: string) =>
  api.post("/api/v1/messages", { as, params: { type: "stream", to, topic, content } });
const dm = (as: TestUser, to: TestUser[], content: string) =>
  api.post("/api/v1/messages", {
    as,
    params: { type: "private", to: JSON.stringify(to.map((u) => u.id)), content },
  });
const draft = (type: string, to: number[], topic: string, content: string) =>
  api.post("/api/v1/drafts", {
    as: iago,
    params: { drafts: JSON.stringify([{ type, to, topic, content }]) },
  });
const streams = (await api.get("/api/v1/users/me/subscriptions", { as: iago })).body.subscriptions as {
  name: string;
  stream_id: number;
}[];
const streamId = (name: string) => streams.find((s) => s.name === name)?.stream_id ?? 0;
await draft("stream", [streamId("engineering")], "release 2.4", "Release notes draft:\n\n* faster search");
await draft("private", [hamlet.id], "", "About the ghost: let's talk tonight.");
await draft("", [], "", "Ideas for the offsite");

/** The conversations, sent once the pages are on Recent conversations (so they stay unread). */
async function converse(): Promise<void> {
  await say(othello, "releases", "2.3", "2.3.1 is out with the webhook fixes.");
  await say(iago, "engineering", "release 2.4", "The 2.4 branch is cut. Anything still missing?");
  await say(hamlet, "engineering", "release 2.4", "Only the migration notes.");
  await say(cordelia, "engineering", "flaky CI", "The browser tests time out on the small runner again.");
  await say(hamlet, "Denmark", "castle", "@**Iago** have you seen the ghost on the battlements?");
  await dm(othello, [iago], "Can you review my pull request before lunch?");
  await dm(cordelia, [iago, hamlet], "Dinner at eight?");
  await say(othello, "engineering", "release 2.4", "Migration notes are in; ship it.");
}

const browser = await launchBrowser();
fs.mkdirSync(outDir, { recursive: true });
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  const file = path.join(outDir, name);
  await page.screenshot({ path: file });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 760 } })).newPage();
  await signIn(page, server.url, iago.email, OWNER_PASSWORD);
  await page.goto(`${server.url}/#recent`);
  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signIn(phone, server.url, iago.email, OWNER_PASSWORD);
  await phone.goto(`${server.url}/#recent`);
  await converse();
  for (const p of [page, phone]) {
    const rows = p.getByRole("list", { name: "Conversations" }).getByRole("listitem");
    await rows.nth(5).waitFor();
    await rows.first().getByText("#engineering › release 2.4").waitFor();
  }
  await shot(page, "recent.png");
  await shot(phone, "recent-phone.png");
  await page.goto(`${server.url}/#drafts`);
  await page.getByText("Ideas for the offsite").waitFor();
  await shot(page, "drafts.png");
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
