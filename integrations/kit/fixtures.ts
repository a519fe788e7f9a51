import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { WebhookRequest } from "./stages.js";
import type { AnyIntegration } from "./define-integration.js";

/**
 * Zulip-style fixtures: `fixtures/<event header value>__<variant>.json` beside an integration
 * (e.g. `push__1_commit.json` → `X-GitHub-Event: push`). `<name>.headers.json` next to a fixture
 * overrides the headers; integrations without an event header ignore the name's prefix. These are
 * payloads for events the recorded cases (fixtures/cases/) do not show.
 */
export function fixturesDir(dir: URL | string): string {
  const d = typeof dir === "string" ? dir : fileURLToPath(dir);
  return path.basename(d) === "fixtures" ? d : path.join(d, "fixtures");
}

/** The folder of a bundled integration (`integrations/<name>/`): its doc.md and fixtures. */
export function integrationFolder(name: string): string {
  return fileURLToPath(new URL(`../${name}/`, import.meta.url));
}

export function listFixtures(dir: URL | string): string[] {
  const d = fixturesDir(dir);
  if (!fs.existsSync(d)) return [];
  return fs
    .readdirSync(d)
    .filter((f) => f.endsWith(".json") && !f.endsWith(".headers.json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

/** The request a fixture stands for: its exact bytes, and the event header from its name. */
export function fixtureRequest(
  integration: AnyIntegration,
  dir: URL | string,
  name: string,
  params: Record<string, string> = {},
): WebhookRequest {
  const d = fixturesDir(dir);
  const rawBody = fs.readFileSync(path.join(d, `${name}.json`));
  const headers: Record<string, string> = { "content-type": "application/json" };
  const headersFile = path.join(d, `${name}.headers.json`);
  if (fs.existsSync(headersFile)) {
    for (const [k, v] of Object.entries(
      JSON.parse(fs.readFileSync(headersFile, "utf8")) as Record<string, string>,
    )) {
      headers[k.toLowerCase()] = v;
    }
  } else if (integration.eventHeader !== undefined) {
    headers[integration.eventHeader.name.toLowerCase()] = name.split("__")[0] ?? name;
  }
  return { headers, params, rawBody };
}
