/**
 * `chat-server new-integration NAME [--dir DIR]` and `chat-server test-integration DIR`: an
 * integration written outside this repository, from a working skeleton to its fixtures run and
 * compared, then loaded by `serve --integrations-path DIR/NAME` as it is (docs/writing-integrations.md).
 */
import fs from "node:fs";
import path from "node:path";
import { dispatchWebhookAsync, fixtureRequest, listFixtures } from "../../integrations/kit/index.js";
import { integrations } from "../../integrations/index.js";
import { loadExternalIntegrations } from "./external-integrations.js";
import { renderTemplates } from "../../integrations/template/index.js";

const SLUG = /^[a-z0-9_]+$/;

/** The files of a new integration's skeleton, by path inside its folder. */
export function skeletonFiles(name: string): Record<string, string> {
  const display = name
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
  const index = `// The ${display} integration: one JSON payload, one message. Loaded as it is by
//   chat-server serve --integrations-path <this folder>
// and checked against its fixtures by
//   chat-server test-integration <this folder>
// A handler gets the payload as the kit's Wild: payload.get("key").str() reads a string, and a key
// that is missing or of another type answers the sender a clear 400 naming it. More: doc.md.

export default {
  name: "${name}",
  displayName: "${display}",
  categories: ["misc"],
  description: "Posts ${display} events.",
  events: {
    default: (payload) => ({
      topic: payload.get("project").str(),
      body: \`**\${payload.get("user").str()}** \${payload.get("action").str()} [\${payload.get("title").str()}](\${payload.get("url").str()})\`,
    }),
  },
};
`;
  const fixture = {
    project: "Website",
    user: "Ada",
    action: "opened",
    title: "Fix the footer",
    url: "https://example.com/issues/1",
  };
  const expected = {
    topic: "Website",
    body: "**Ada** opened [Fix the footer](https://example.com/issues/1)",
  };
  const doc = `# ${display}

Posts ${display} events: one message per webhook, in a topic named after the project.

## Set up

1. Load it: \`chat-server serve --integrations-path <this folder>\`.
2. Build its URL in the web app (Integrations → ${display}) or with
   \`chat-server integration-url ${name} --stream <stream>\`, and paste it into the service.

## Test it

\`chat-server test-integration <this folder>\` sends each \`fixtures/<name>.json\` through the
integration and compares the message with \`fixtures/expected/<name>.json\` (\`{"topic", "body"}\`, or
\`null\` for a payload that posts nothing).
`;
  return {
    "index.mjs": index,
    "fixtures/default.json": `${JSON.stringify(fixture, null, 2)}\n`,
    "fixtures/expected/default.json": `${JSON.stringify(expected, null, 2)}\n`,
    "doc.md": doc,
  };
}

/** Writes the skeleton into `dir/name`; refuses a bad name or an existing folder. Answers the folder. */
export function writeSkeleton(name: string, dir: string): string {
  if (!SLUG.test(name))
    throw new Error(`An integration's name is lower-case letters, digits and _: '${name}' is not`);
  if (integrations.some((i) => i.name === name))
    throw new Error(`'${name}' is already a bundled integration`);
  const folder = path.resolve(dir, name);
  if (fs.existsSync(folder)) throw new Error(`${folder} exists already`);
  for (const [file, text] of Object.entries(skeletonFiles(name))) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), text);
  }
  return folder;
}

/** One fixture's run: what was expected and what came out. */
export interface FixtureRun {
  integration: string;
  fixture: string;
  expected: { topic: string; body: string } | null | undefined;
  actual: { topic: string; body: string } | null;
  error: string | undefined;
  ok: boolean;
}

/** Runs every fixture of the integration(s) in `dir` and compares with `fixtures/expected/`. */
export async function testIntegration(dir: string): Promise<FixtureRun[]> {
  const loaded = await loadExternalIntegrations([dir], integrations);
  const runs: FixtureRun[] = [];
  for (const { integration, folder } of loaded) {
    for (const fixture of listFixtures(folder)) {
      const expectedFile = path.join(folder, "fixtures", "expected", `${fixture}.json`);
      const expected = fs.existsSync(expectedFile)
        ? (JSON.parse(fs.readFileSync(expectedFile, "utf8")) as { topic: string; body: string } | null)
        : undefined;
      let actual: { topic: string; body: string } | null = null;
      let error: string | undefined;
      try {
        const outcome = await dispatchWebhookAsync(integration, {
          ...fixtureRequest(integration, folder, fixture),
          renderTemplates,
        });
        const last = outcome.kind === "messages" ? outcome.messages[outcome.messages.length - 1] : undefined;
        actual = last === undefined ? null : { topic: last.topic, body: last.body };
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const ok =
        error === undefined && expected !== undefined && JSON.stringify(expected) === JSON.stringify(actual);
      runs.push({ integration: integration.name, fixture, expected, actual, error, ok });
    }
  }
  return runs;
}

/** What `test-integration` prints for its runs. */
export function fixtureRunsText(runs: readonly FixtureRun[]): string {
  const show = (m: { topic: string; body: string } | null | undefined): string =>
    m === undefined
      ? "(no fixtures/expected file)"
      : m === null
        ? "(nothing posted)"
        : `topic: ${m.topic}\n      body:  ${m.body.replace(/\n/g, "\n             ")}`;
  const lines: string[] = [];
  for (const r of runs) {
    lines.push(`${r.ok ? "ok  " : "FAIL"} ${r.integration}: ${r.fixture}`);
    if (!r.ok) {
      lines.push(`    expected ${show(r.expected)}`);
      lines.push(r.error !== undefined ? `    error    ${r.error}` : `    actual   ${show(r.actual)}`);
    }
  }
  const failed = runs.filter((r) => !r.ok).length;
  lines.push(
    runs.length === 0
      ? "No fixtures found (fixtures/<name>.json)."
      : `${runs.length - failed} of ${runs.length} fixtures as expected.`,
  );
  return lines.join("\n");
}
