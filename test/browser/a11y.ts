/**
 * Accessibility checks with axe-core (issue 24: "no serious violations"): the engine is injected
 * into the page and run there; violations of impact "serious" or "critical" are returned as lines
 * (rule id, help text and the failing elements) so a test can print them and fail.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeSource: string | undefined;

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

/** The serious and critical axe violations on the page as it is now, one line each (none: []). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  // The app's Content-Security-Policy forbids inline scripts (addScriptTag): evaluated through the
  // DevTools protocol instead, which the policy does not govern.
  axeSource ??= fs.readFileSync(AXE_PATH, "utf8");
  if (!loaded) await page.evaluate(`${axeSource}\n;true`);
  const violations = await page.evaluate(async () => {
    // axe-core's global, injected above (its types are not part of the page's).
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown }> } })
      .axe;
    const result = await axe.run(document);
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact ?? ""} ${v.id}: ${v.help}\n` +
        v.nodes
          .map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`.replace(/\n/g, " "))
          .join("\n"),
    );
}
