import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integrations } from "../../integrations/index.js";
import { caseBody, fixtureRequest, listFixtures, loadCases } from "../../integrations/kit/index.js";

const integrationsRoot = fileURLToPath(new URL("../../integrations/", import.meta.url));

export interface FixtureRequest {
  headers: Record<string, string>;
  body: Buffer;
  /** Extra query parameters the recorded case used (branches, only_events…). */
  query: Record<string, string>;
}

/** Finds `fixture` among an integration's Zulip-style fixtures or recorded cases. */
export function loadFixtureRequest(integrationName: string, fixture: string): FixtureRequest {
  const integration = integrations.find((i) => i.name === integrationName);
  if (integration === undefined) {
    throw new Error(
      `Unknown integration '${integrationName}'. Known: ${integrations.map((i) => i.name).join(", ")}`,
    );
  }
  const folders = [integrationName, integrationName.replace(/sponsors$/, "")].filter((f) =>
    fs.existsSync(path.join(integrationsRoot, f)),
  );
  for (const folder of folders) {
    const dir = path.join(integrationsRoot, folder);
    if (listFixtures(dir).includes(fixture)) {
      const req = fixtureRequest(integration, dir, fixture);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
      return { headers, body: req.rawBody, query: {} };
    }
    const found = loadCases(path.join(dir, "fixtures", "cases")).find(
      (c) => c.case_id === fixture || c.fixture_name === fixture,
    );
    if (found !== undefined) {
      const headers: Record<string, string> = { ...found.headers };
      if (found.content_type !== null) headers["content-type"] = found.content_type;
      const query: Record<string, string> = { ...found.query };
      delete query["stream"];
      return { headers, body: caseBody(found), query };
    }
  }
  const names = folders.flatMap((f) => [
    ...listFixtures(path.join(integrationsRoot, f)),
    ...loadCases(path.join(integrationsRoot, f, "fixtures", "cases")).map((c) => c.case_id),
  ]);
  throw new Error(`No fixture '${fixture}' for ${integrationName}. Available: ${names.join(", ")}`);
}

/** Posts a fixture to a running server, as the service would; returns the status and body. */
export async function sendWebhookFixture(opts: {
  site: string;
  apiKey: string;
  integration: string;
  fixture: string;
  stream?: string | undefined;
  topic?: string | undefined;
}): Promise<{ status: number; body: string; url: string }> {
  const req = loadFixtureRequest(opts.integration, opts.fixture);
  const query = new URLSearchParams({ ...req.query, api_key: opts.apiKey });
  if (opts.stream !== undefined) query.set("stream", opts.stream);
  if (opts.topic !== undefined) query.set("topic", opts.topic);
  const url = `${opts.site.replace(/\/$/, "")}/api/v1/external/${opts.integration}?${query.toString()}`;
  const res = await fetch(url, { method: "POST", headers: req.headers, body: new Uint8Array(req.body) });
  return { status: res.status, body: await res.text(), url: url.replace(opts.apiKey, "<API_KEY>") };
}
