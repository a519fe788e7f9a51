/**
 * Takes the README's screenshots of the chat's views (docs/screenshots/recent.png,
 * recent-phone.png, drafts.png) with Debian's Chromium: a server on a temporary store, a few
 * conversations and drafts, then Recent conversations (desktop and phone) and Drafts.
 *
 *   node bin/run-ts.js scripts/view-screenshots.ts [--out docs/screenshots]
 */
import { signIn } from "../test/browser/browser.js";
import { OWNER_PASSWORD } from "../test/helpers/test-server.js";
import type { TestUser } from "../test/helpers/test-server.js";
import { startScreenshots } from "./screenshot-kit.js";

const kit = await startScreenshots(
  "view-screenshots",
  "Photographs Recent conversations and Drafts into DIR",
);
const { server, browser, say, shot } = kit;
const { api, users } = server;
const { iago, hamlet, othello, cordelia } = users;

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
  await kit.close();
}
