import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integrations } from "../../integrations/index.js";
import { caseBody, fixtureRequest, listFixtures, loadCases } from "../../integrations/kit/index.js";
import { loadExternalIntegrations } from "./external-integrations.js";
import type { ExternalIntegration } from "./external-integrations.js";
import { integrationBot, streamExists } from "./integration-url.js";
import { ChatApiClient } from "../../bots/kit/index.js";
import type { ChatApiCredentials } from "../../bots/kit/index.js";

const integrationsRoot = fileURLToPath(new URL("../../integrations/", import.meta.url));

export interface FixtureRequest {
  headers: Record<string, string>;
  body: Buffer;
  /** Extra query parameters the recorded case used (branches, only_events…). */
  query: Record<string, string>;
}

/**
 * Finds `fixture` among an integration's Zulip-style fixtures or recorded cases: a bundled
 * integration's, or one of `external` (loaded with `--integrations-path`, fixtures in its folder).
 */
export function loadFixtureRequest(
  integrationName: string,
  fixture: string,
  external: readonly ExternalIntegration[] = [],
): FixtureRequest {
  const outside = external.find((e) => e.integration.name === integrationName);
  const integration = outside?.integration ?? integrations.find((i) => i.name === integrationName);
  if (integration === undefined) {
    const known = [...integrations, ...external.map((e) => e.integration)].map((i) => i.name);
    throw new Error(`Unknown integration '${integrationName}'. Known: ${known.join(", ")}`);
  }
  const dirs =
    outside !== undefined
      ? [outside.folder]
      : [integrationName, integrationName.replace(/sponsors$/, "")]
          .map((f) => path.join(integrationsRoot, f))
          .filter((d) => fs.existsSync(d));
  for (const dir of dirs) {
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
  const names = dirs.flatMap((d) => [
    ...listFixtures(d),
    ...loadCases(path.join(d, "fixtures", "cases")).map((c) => c.case_id),
  ]);
  throw new Error(`No fixture '${fixture}' for ${integrationName}. Available: ${names.join(", ")}`);
}

/** What `send-webhook-fixture` did: the answer, and as whom and where it was sent. */
export interface SentFixture {
  status: number;
  body: string;
  /** The URL, its key written `<API_KEY>`. */
  url: string;
  /** The integration's bot it was sent as, when the key was not given (created now or not). */
  bot?: { email: string; created: boolean };
  /** false: the stream does not exist (the server answers 200 and posts nothing, as Zulip). */
  streamExists?: boolean;
}

/**
 * Posts a fixture to a running server, as the service would: with `apiKey` when given, else as
 * the integration's incoming-webhook bot of the zuliprc's user (created when missing, as
 * `integration-url` does), so that the delivery log and the owner's notices see it as a real
 * delivery. With a zuliprc, says whether the stream exists.
 */
export async function sendWebhookFixture(opts: {
  /** The server; default the zuliprc's site. */
  site?: string | undefined;
  /** The key to post with (`--api-key`); default the integration's bot's. */
  apiKey?: string | undefined;
  /** The zuliprc's credentials, to find or create the bot and check the stream. */
  rc?: ChatApiCredentials | undefined;
  integration: string;
  fixture: string;
  stream?: string | undefined;
  topic?: string | undefined;
  /** Integrations of your own the fixture may belong to (`--integrations-path`, as serve takes it). */
  integrationsPath?: readonly string[];
}): Promise<SentFixture> {
  const paths = opts.integrationsPath ?? [];
  const external = paths.length === 0 ? [] : await loadExternalIntegrations(paths, integrations);
  const req = loadFixtureRequest(opts.integration, opts.fixture, external);
  const integration =
    external.find((e) => e.integration.name === opts.integration)?.integration ??
    integrations.find((i) => i.name === opts.integration);
  const client =
    opts.rc === undefined ? undefined : new ChatApiClient(opts.rc, { userAgent: "chat-server-cli" });
  let apiKey = opts.apiKey;
  let bot: SentFixture["bot"];
  if (apiKey === undefined) {
    if (client === undefined || integration === undefined) throw new Error("Give --api-key or a zuliprc");
    const found = await integrationBot(
      client,
      { name: integration.name, display_name: integration.displayName },
      undefined,
      "--api-key",
    );
    apiKey = found.bot.api_key;
    bot = { email: found.bot.email, created: found.created };
  }
  const site = (opts.site ?? opts.rc?.site ?? "").replace(/\/$/, "");
  const query = new URLSearchParams({ ...req.query, api_key: apiKey });
  if (opts.stream !== undefined) query.set("stream", opts.stream);
  if (opts.topic !== undefined) query.set("topic", opts.topic);
  const url = `${site}/api/v1/external/${opts.integration}?${query.toString()}`;
  const res = await fetch(url, { method: "POST", headers: req.headers, body: new Uint8Array(req.body) });
  return {
    status: res.status,
    body: await res.text(),
    url: url.replace(apiKey, "<API_KEY>"),
    ...(bot === undefined ? {} : { bot }),
    ...(opts.stream === undefined || client === undefined
      ? {}
      : { streamExists: await streamExists(client, opts.stream) }),
  };
}
