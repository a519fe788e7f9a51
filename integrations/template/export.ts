/**
 * A template bot's saved templates, exported as an integration module of its own (issue 28: "the
 * template integration's saved templates can be exported as such a module when they outgrow a
 * template"): a folder that `serve --integrations-path` loads as it is and `test-integration`
 * checks — the definition with one event per template pair, fixtures from the bot's logged
 * deliveries with the messages the templates make of them, a test and a doc.
 */
import { BODY_KEY, DEFAULT_BODY, DEFAULT_TOPIC, EVENT_HEADER_KEY, TOPIC_KEY } from "./index.js";

const SLUG = /^[a-z0-9_]+$/;

/** One logged delivery that becomes a fixture: its body, its headers, what the templates make of it. */
export interface ExportedDelivery {
  id: number;
  /** The JSON body as it arrived. */
  body: string;
  /** Its headers by lower-case name (the bot's `template_event_header` picks the event). */
  headers: Readonly<Record<string, string>>;
  /** What the templates make of it now: the message, or null when they post nothing. */
  expected: { topic: string; body: string } | null;
}

/** The template pairs of a bot's configuration, by event (`default`: the plain pair). */
export function templatePairs(
  config: Readonly<Record<string, string>>,
): Record<string, { topic: string; body: string }> {
  const hasAny =
    config[BODY_KEY] !== undefined || Object.keys(config).some((k) => k.startsWith(`${BODY_KEY}.`));
  const plain = {
    topic: config[TOPIC_KEY] ?? (hasAny ? "" : DEFAULT_TOPIC),
    body: config[BODY_KEY] ?? DEFAULT_BODY,
  };
  const pairs: Record<string, { topic: string; body: string }> = { default: plain };
  const values = new Set<string>();
  for (const key of Object.keys(config)) {
    for (const prefix of [`${TOPIC_KEY}.`, `${BODY_KEY}.`]) {
      if (key.startsWith(prefix)) values.add(key.slice(prefix.length));
    }
  }
  for (const value of [...values].sort()) {
    if (value === "" || value === "default") continue;
    pairs[value] = {
      topic: config[`${TOPIC_KEY}.${value}`] ?? plain.topic,
      body: config[`${BODY_KEY}.${value}`] ?? plain.body,
    };
  }
  return pairs;
}

function displayNameOf(name: string): string {
  return name
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** A fixture's file name: `<event header value>__delivery_<id>` (the kit reads the header from it). */
function fixtureName(d: ExportedDelivery, header: string | undefined): string {
  if (header === undefined) return `delivery_${d.id}`;
  const value = d.headers[header.toLowerCase()];
  return `${value !== undefined && /^[A-Za-z0-9_.:-]+$/.test(value) ? value : "none"}__delivery_${d.id}`;
}

/**
 * The module's files by path inside its folder. `name` is the new integration's (a-z, 0-9, _);
 * `config` the bot's configuration; `deliveries` become fixtures (JSON bodies only).
 */
export function templateModuleFiles(
  name: string,
  botName: string,
  config: Readonly<Record<string, string>>,
  deliveries: readonly ExportedDelivery[],
): Record<string, string> {
  if (!SLUG.test(name)) {
    throw new Error(`An integration's name is lower-case letters, digits and _: '${name}' is not`);
  }
  const saved = Object.keys(config).some((k) => k.startsWith(TOPIC_KEY) || k.startsWith(BODY_KEY));
  if (!saved && deliveries.length === 0) {
    throw new Error("This bot has no saved templates and no template deliveries to export.");
  }
  const display = displayNameOf(name);
  const header = config[EVENT_HEADER_KEY];
  const hasHeader = header !== undefined && header !== "";
  const pairs = templatePairs(config);
  const files: Record<string, string> = {};

  const headerLines = hasHeader
    ? `  // The request header whose value picks a pair; any other value (or none) uses "default".
  eventHeader: { name: ${JSON.stringify(header)}, optional: true },
  classify: ({ header }) =>
    header !== undefined && Object.prototype.hasOwnProperty.call(TEMPLATES, header) ? header : "default",
`
    : "";
  files["index.mjs"] =
    `// ${display}: exported from the template bot ${JSON.stringify(botName)}'s saved templates.
// Loaded as it is by
//   chat-server serve --integrations-path <this folder>
// and checked against its fixtures (the bot's logged deliveries) by
//   chat-server test-integration <this folder>
//
// Each event renders its LiquidJS pair as the template integration did (ctx.renderTemplates:
// the same filters and limits). To outgrow a template, replace an event's handler with code that
// returns { topic, body } (or null to post nothing) from the payload — payload.get("key").str(),
// .int(), .opt("key"), .items() — and run test-integration again. More: doc.md.

/** The saved templates, by event: the value of the event header, or "default". */
const TEMPLATES = ${JSON.stringify(pairs, null, 2)};

/** Renders an event's pair; an empty body posts nothing, as in the template integration. */
async function fromTemplates(payload, ctx) {
  const { topic, body } = await ctx.renderTemplates(TEMPLATES[ctx.event] ?? TEMPLATES.default);
  return body === "" ? null : { topic, body };
}

export default {
  name: ${JSON.stringify(name)},
  displayName: ${JSON.stringify(display)},
  categories: ["misc"],
  description: ${JSON.stringify(`Posts what the template bot ${botName} posted, from its exported templates.`)},
  needs: ["templates"],
${headerLines}  events: Object.fromEntries(Object.keys(TEMPLATES).map((event) => [event, fromTemplates])),
};
`;

  const used = new Set<string>();
  for (const d of deliveries) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(d.body);
    } catch {
      continue; // a form post or other body: not a JSON fixture
    }
    const fixture = fixtureName(d, hasHeader ? header : undefined);
    if (used.has(fixture)) continue;
    used.add(fixture);
    files[`fixtures/${fixture}.json`] = `${JSON.stringify(parsed, null, 2)}\n`;
    files[`fixtures/expected/${fixture}.json`] = `${JSON.stringify(d.expected, null, 2)}\n`;
  }

  files["test.mjs"] = `// Runs every fixture through the integration and compares with fixtures/expected/:
//   node test.mjs          (or: chat-server test-integration <this folder>)
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL(".", import.meta.url));
execFileSync("npx", ["chat-server", "test-integration", folder], { stdio: "inherit" });
`;

  const events = Object.keys(pairs)
    .map((e) => `\`${e}\``)
    .join(", ");
  files["doc.md"] = `# ${display}

Posts what the template bot ${botName} posted: its saved LiquidJS templates, exported as an
integration module${hasHeader ? `, one event per value of the \`${header}\` header` : ""}.

Events: ${events}${hasHeader ? ` (\`default\` for any other value of \`${header}\`, or none)` : ""}.

## Set up

1. Load it: \`chat-server serve --integrations-path <this folder>\`.
2. Build its URL in the web app (Integrations → ${display}) or with
   \`chat-server integration-url ${name} --stream <stream>\`, and give it to the service instead of
   the template bot's URL.

## Test it

\`chat-server test-integration <this folder>\` (or \`node test.mjs\`) sends each
\`fixtures/<name>.json\` — the bot's logged deliveries — through the integration and compares the
message with \`fixtures/expected/<name>.json\`, what the templates made of it when exported. The
fixtures carry the event header (from their name) but not the original query or other headers.
`;
  return files;
}
