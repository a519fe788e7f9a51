/**
 * Browser-test helpers: playwright-core driving Debian's Chromium (`apt-get install -y chromium`).
 * Tests skip with a clear line when it is missing; `.ci/run` installs it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";

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
