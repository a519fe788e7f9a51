import fs from "node:fs";
import path from "node:path";
import MarkdownIt from "markdown-it";
import { NotFoundError } from "../../errors.js";
import {
  caseRequest,
  fixtureRequest,
  integrationFolder,
  listFixtures,
  loadCases,
} from "../../../integrations/kit/index.js";
import type { WebhookCase } from "../../../integrations/kit/index.js";

/** An integration as the kit's fixture helper takes it (we read only its name besides). */
type RegisteredIntegration = Parameters<typeof fixtureRequest>[0];

/** Documentation Markdown: no raw HTML (the docs are ours, but the client sanitises anyway). */
const docMarkdown = new MarkdownIt({ html: false, linkify: true });

export interface IntegrationDoc {
  name: string;
  docHtml: string;
  fixtures: string[];
}

/** Recorded cases that post a message can be replayed too; they are named `case:<file name>`. */
const CASE_PREFIX = "case:";
const POSTING = new Set(["channel_message", "message", "direct_message"]);

function replayableCases(folder: string): Map<string, WebhookCase> {
  const dir = path.join(folder, "fixtures", "cases");
  const out = new Map<string, WebhookCase>();
  if (!fs.existsSync(dir)) return out;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const cases = loadCases(dir);
  files.forEach((file, i) => {
    const c = cases[i];
    if (c !== undefined && POSTING.has(c.expect) && c.body_encoding !== "multipart")
      out.set(CASE_PREFIX + file.slice(0, -".json".length), c);
  });
  return out;
}

export interface FixturePayload {
  headers: Record<string, string>;
  body: string;
}

/**
 * What the web app's integration pages show beyond the registry's list: the integration's
 * `doc.md` rendered, and its Zulip-style fixtures (for "send a test payload"). Reads only the
 * integration's `name` and what the kit's fixture helpers need.
 */
export class IntegrationDocs {
  private readonly html = new Map<string, string>();

  constructor(
    private readonly lookUp: (name: string) => RegisteredIntegration | undefined,
    private readonly folderOf: (name: string) => string = integrationFolder,
  ) {}

  private folder(name: string): { integration: RegisteredIntegration; folder: string } {
    const integration = /^[a-z0-9_]+$/.test(name) ? this.lookUp(name) : undefined;
    if (integration === undefined) throw new NotFoundError();
    return { integration, folder: this.folderOf(integration.name) };
  }

  doc(name: string): IntegrationDoc {
    const { integration, folder } = this.folder(name);
    let docHtml = this.html.get(integration.name);
    if (docHtml === undefined) {
      const file = path.join(folder, "doc.md");
      docHtml = fs.existsSync(file) ? docMarkdown.render(fs.readFileSync(file, "utf8")) : "";
      this.html.set(integration.name, docHtml);
    }
    return {
      name: integration.name,
      docHtml,
      fixtures: [...listFixtures(folder), ...replayableCases(folder).keys()],
    };
  }

  fixture(name: string, fixture: string): FixturePayload {
    const { integration, folder } = this.folder(name);
    let req: { headers: Readonly<Record<string, string | undefined>>; rawBody: Buffer };
    if (fixture.startsWith(CASE_PREFIX)) {
      const c = replayableCases(folder).get(fixture);
      if (c === undefined) throw new NotFoundError();
      req = caseRequest(c);
    } else {
      if (!listFixtures(folder).includes(fixture)) throw new NotFoundError();
      req = fixtureRequest(integration, folder, fixture);
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v;
    return { headers, body: req.rawBody.toString("utf8") };
  }
}
