import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { integrations } from "../../integrations/index.js";
import { caseRequest, fixtureRequest, listFixtures, loadCases } from "../../integrations/kit/index.js";
import { dispatchWebhook } from "../../integrations/kit/dispatch.js";
import type { AnyIntegration as Integration } from "../../integrations/kit/index.js";

const root = fileURLToPath(new URL("../../integrations/", import.meta.url));
const folders = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "kit")
  .map((d) => d.name)
  .sort();

function isIntegration(v: unknown): v is Integration {
  return typeof v === "object" && v !== null && "name" in v && "events" in v && "displayName" in v;
}

/** Integrations a folder's index.ts exports (its default, plus any other exported integration). */
async function exportedBy(folder: string): Promise<Integration[]> {
  const mod = (await import(pathToFileURL(path.join(root, folder, "index.ts")).href)) as Record<
    string,
    unknown
  >;
  return Object.values(mod).filter(isIntegration);
}

describe("the integrations registry", () => {
  it("registers every integration folder, and nothing else", async () => {
    const exported = new Set<Integration>();
    for (const folder of folders) {
      const found = await exportedBy(folder);
      expect({ folder, exports: found.length > 0 }).toEqual({ folder, exports: true });
      for (const i of found) {
        expect({ folder, name: i.name, registered: integrations.includes(i) }).toEqual({
          folder,
          name: i.name,
          registered: true,
        });
        exported.add(i);
      }
    }
    for (const i of integrations)
      expect({ name: i.name, inAFolder: exported.has(i) }).toEqual({ name: i.name, inAFolder: true });
  });

  it("has unique names", () => {
    const names = integrations.map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(folders)("%s has a doc.md, a test file and fixtures", (folder) => {
    const files = fs.readdirSync(path.join(root, folder));
    expect(files).toContain("doc.md");
    expect(files.some((f) => f.endsWith(".test.ts"))).toBe(true);
    expect(fs.existsSync(path.join(root, folder, "fixtures"))).toBe(true);
  });

  it.each(folders)("%s: every fixture is used and every handler is reached by a fixture", async (folder) => {
    const own = await exportedBy(folder);
    const byName = new Map(own.map((i) => [i.name, i]));
    const reached = new Map<string, Set<string>>(own.map((i) => [i.name, new Set<string>()]));
    const cases = loadCases(path.join(root, folder, "fixtures", "cases"));
    expect(cases.length + listFixtures(path.join(root, folder, "fixtures")).length).toBeGreaterThan(0);
    for (const c of cases) {
      const name = c.url_path.replace(/^\/api\/v1\/external\//, "");
      const integration = byName.get(name);
      // A fixture for an integration this folder does not define is an unused fixture.
      expect({ case: c.case_id, integration: name, definedHere: integration !== undefined }).toEqual({
        case: c.case_id,
        integration: name,
        definedHere: true,
      });
      if (integration === undefined) continue;
      try {
        const outcome = dispatchWebhook(integration, caseRequest(c));
        reached.get(name)?.add(outcome.event);
      } catch {
        // Error cases reach no handler.
      }
    }
    // Zulip-style fixtures (fixtures/<header>__<variant>.json) must each be named in a test file.
    const testSources = fs
      .readdirSync(path.join(root, folder))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => fs.readFileSync(path.join(root, folder, f), "utf8"))
      .join("\n");
    for (const fixture of listFixtures(path.join(root, folder, "fixtures"))) {
      expect({ fixture, usedByATest: testSources.includes(`"${fixture}"`) }).toEqual({
        fixture,
        usedByATest: true,
      });
      for (const integration of own) {
        try {
          reached
            .get(integration.name)
            ?.add(
              dispatchWebhook(integration, fixtureRequest(integration, path.join(root, folder), fixture))
                .event,
            );
        } catch {
          // A fixture of another integration of this folder, or an error fixture.
        }
      }
    }
    for (const integration of own) {
      const keys = [...(reached.get(integration.name) ?? [])];
      // A handler function may serve several event names (GitHub's pull request actions): it is
      // reached when any of them is.
      const handlerOf = (event: string): unknown => (integration.events as Record<string, unknown>)[event];
      const reachedHandlers = new Set(keys.map(handlerOf));
      const unreached = integration.eventTypes.filter((h) => !reachedHandlers.has(handlerOf(h)));
      expect({ integration: integration.name, unreached }).toEqual({
        integration: integration.name,
        unreached: [],
      });
    }
  });
});
