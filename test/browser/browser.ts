/**
 * Browser-test helpers: playwright-core driving Debian's Chromium (`apt-get install -y chromium`).
 * Tests skip with a clear line when it is missing; `.ci/run` installs it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import type { ServerConfig } from "../../src/config.js";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/** The flags issue 13 lists: headless, no sandbox (root in CI), and no calls to outside hosts. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function hasChromium(): boolean {
  return fs.existsSync(CHROMIUM);
}

let skipNoticePrinted = false;
/** Prints once why browser tests are skipped. */
export function printSkipNotice(): void {
  if (skipNoticePrinted) return;
  skipNoticePrinted = true;
  // Straight to stderr: Jest shows no console output of a suite whose tests are all skipped.
  process.stderr.write(
    `\nSKIPPED browser tests: no Chromium at ${CHROMIUM} (install it with \`apt-get install -y chromium\`; .ci/run does).\n`,
  );
}

/** A fresh browser (Playwright gives every launch a new temporary profile). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Builds the web app once when dist/web is missing or older than web/ (a fresh checkout without prepare). */
export function ensureWebBuilt(): void {
  execFileSync(process.execPath, ["bin/run-ts.js", "scripts/build-web.ts", "--if-stale"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  if (!fs.existsSync(path.join(ROOT, "dist/web/index.html"))) throw new Error("web app build failed");
}

/** Signs in through the real form. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  // On a phone the button is in the collapsed menu: attached, not visible.
  await page.getByRole("button", { name: "Log out", includeHidden: true }).waitFor({ state: "attached" });
}

/** A phone-sized viewport (the width of most current phones). */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1200, height: 800 };

/**
 * The shared set-up of a browser suite: a test server on a temporary data directory (the web app
 * built first), one Chromium, and pages in fresh contexts that fail the test on any dialog.
 * Call `start()` in beforeAll and `stop()` in afterAll (this module imports no Jest, so scripts
 * can use it too).
 */
export class BrowserFixture {
  server!: TestServer;
  browser!: Browser;
  private dataDir: string | undefined;
  private readonly contexts: BrowserContext[] = [];

  constructor(
    private readonly name: string,
    private readonly config: Partial<ServerConfig> = {},
  ) {}

  async start(): Promise<void> {
    ensureWebBuilt();
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${this.name}-`));
    this.server = await startTestServer({ config: { dataDir: this.dataDir, ...this.config } });
    this.browser = await launchBrowser();
  }

  /** A page in a fresh context (its own cookies). */
  async page(viewport: { width: number; height: number } = DESKTOP): Promise<Page> {
    const context = await this.browser.newContext({ viewport });
    this.contexts.push(context);
    const page = await context.newPage();
    // A message or page that runs script would show up as a dialog.
    page.on("dialog", (d) => {
      throw new Error(`unexpected dialog: ${d.message()}`);
    });
    return page;
  }

  /** A page signed in as `email` (iago's password by default). */
  async signedIn(
    email: string,
    password: string = OWNER_PASSWORD,
    viewport: { width: number; height: number } = DESKTOP,
  ): Promise<Page> {
    const page = await this.page(viewport);
    await signIn(page, this.server.url, email, password);
    return page;
  }

  async stop(): Promise<void> {
    for (const c of this.contexts) await c.close().catch(() => undefined);
    await this.browser?.close();
    await this.server?.close();
    if (this.dataDir !== undefined) fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs a message's action as a person would: taps the message first (on a phone its actions open
 * when it is selected; on a desktop they show on hover and focus), then the action's button.
 */
export async function messageAction(message: Locator, action: string): Promise<void> {
  await message.click({ position: { x: 4, y: 4 } });
  await message.getByRole("button", { name: action }).click();
}
