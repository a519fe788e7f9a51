/**
 * What the screenshot scripts share (scripts/web-screenshots.ts, scripts/view-screenshots.ts): the
 * `--out DIR` argument, Debian's Chromium, a test server on a temporary store named "Elsinore" with
 * three streams everyone is in, a `say` helper, and `shot`, which writes one PNG.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM, ensureWebBuilt, hasChromium, launchBrowser } from "../test/browser/browser.js";
import { startTestServer } from "../test/helpers/test-server.js";
import type { TestServer, TestUser } from "../test/helpers/test-server.js";

export interface ScreenshotKit {
  server: TestServer;
  browser: Browser;
  /** Posts to a stream as `as`; answers the API's response. */
  say: (as: TestUser, to: string, topic: string, content: string) => ReturnType<TestServer["api"]["post"]>;
  /** Writes `name` (a PNG) into the output folder, after the page has settled. */
  shot: (page: Page, name: string) => Promise<void>;
  close: () => Promise<void>;
}

export async function startScreenshots(name: string, usage: string): Promise<ScreenshotKit> {
  const args = process.argv.slice(2);
  if (args.includes("--help")) {
    console.log(`Usage: ${name} [--out DIR]\n\n${usage} (default DIR: docs/screenshots).`);
    process.exit(0);
  }
  const outIndex = args.indexOf("--out");
  const outDir = path.resolve(
    outIndex === -1 ? "docs/screenshots" : (args[outIndex + 1] ?? "docs/screenshots"),
  );
  if (!hasChromium()) {
    console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    process.exit(1);
  }
  ensureWebBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const server = await startTestServer({ config: { dataDir, realmName: "Elsinore" } });
  const { iago, hamlet, othello, cordelia, webhookBot } = server.users;
  await server.api.post("/api/v1/users/me/subscriptions", {
    as: iago,
    params: {
      subscriptions: [{ name: "Denmark" }, { name: "engineering" }, { name: "releases" }],
      principals: [iago.email, hamlet.email, othello.email, cordelia.email, webhookBot.email],
    },
  });
  const browser = await launchBrowser();
  fs.mkdirSync(outDir, { recursive: true });
  return {
    server,
    browser,
    say: (as, to, topic, content) =>
      server.api.post("/api/v1/messages", { as, params: { type: "stream", to, topic, content } }),
    shot: async (page, file) => {
      await page.waitForTimeout(400);
      const target = path.join(outDir, file);
      await page.screenshot({ path: target });
      console.log(`wrote ${path.relative(process.cwd(), target)}`);
    },
    close: async () => {
      await browser.close();
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
