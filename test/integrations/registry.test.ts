import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { integrations } from "../../integrations/index.js";
import {
  caseRequest,
  fixtureRequest,
  listFixtures,
  loadCases,
  wildcardMatch,
} from "../../integrations/kit/index.js";
import { dispatchWebhookAsync } from "../../integrations/kit/stages.js";
import type { AnyIntegration as Integration } from "../../integrations/kit/index.js";

const root = fileURLToPath(new URL("../../integrations/", import.meta.url));
const folders = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "kit")
  .map((d) => d.name)
  .sort();

/**
 * Integrations that declare no signature, each with the reason: the service sends no signature
 * (or none this server can check with a shared secret). Every other integration must declare its
 * scheme.
 */
const UNSIGNED: Readonly<Record<string, string>> = {
  airbyte: "Airbyte's webhook notifications carry no signature",
  alertmanager: "Alertmanager authenticates with HTTP Basic or bearer credentials, not a body signature",
  ansibletower: "AWX / Ansible Tower notifications use HTTP Basic credentials, no signature",
  appfollow: "AppFollow webhooks carry no signature",
  azuredevops: "Azure DevOps service hooks use HTTP Basic credentials, no signature",
  basecamp: "Basecamp webhooks carry no signature",
  beanstalk: "Beanstalk uses HTTP Basic credentials (the bot's email and API key), no signature",
  bitbucket: "Bitbucket's legacy POST service sends no signature",
  buildbot: "Buildbot's HttpStatusPush sends no signature",
  canarytoken: "Canarytoken alerts carry no signature",
  codeship: "Codeship notifications carry no signature",
  crashlytics: "Crashlytics webhooks carry no signature",
  dialogflow: "Dialogflow fulfillment sends HTTP Basic credentials or custom headers, no signature",
  errbit: "Errbit notifications carry no signature",
  flock: "Flock outgoing webhooks carry no signature",
  freshdesk: "Freshdesk automation webhooks carry no signature",
  freshping: "Freshping webhooks carry no signature",
  freshstatus: "Freshstatus webhooks carry no signature",
  gocd: "the GoCD webhook notifier plugin sends no signature",
  redmine: "the redmine_webhook plugin sends no signature",
  gosquared: "GoSquared webhooks carry no signature",
  grafana:
    "Grafana alerting webhooks are unsigned by default; the optional HMAC of recent Grafana versions is not implemented yet",
  groove: "Groove webhooks carry no signature",
  helloworld: "an example integration with no service behind it",
  heroku: "Heroku Deploy Hooks (what this integration reads) carry no signature",
  homeassistant: "Home Assistant's REST notifications are written by the user, no signature",
  ifttt: "IFTTT webhooks are written by the user, no signature",
  insping: "Insping webhooks carry no signature",
  jira: "Jira webhooks registered by an administrator carry no signature this integration checks",
  jotform: "Jotform webhooks carry no signature",
  json: "a generic JSON receiver, with no service behind it",
  librato: "Librato alert webhooks carry no signature",
  lidarr: "Lidarr webhooks use optional HTTP Basic credentials, no signature",
  newrelic: "New Relic webhook destinations carry no signature",
  opencollective: "Open Collective webhooks carry no signature",
  opensearch: "OpenSearch alerting webhooks send the headers the user configures, no signature",
  opsgenie: "Opsgenie outgoing webhooks carry no signature",
  papertrail: "Papertrail search alerts carry no signature",
  pingdom: "Pingdom webhooks carry no signature",
  pivotal: "Pivotal Tracker activity webhooks carry no signature",
  radarr: "Radarr webhooks use optional HTTP Basic credentials, no signature",
  raygun: "Raygun webhooks carry no signature",
  rhodecode: "RhodeCode webhooks carry no signature",
  rundeck: "Rundeck webhook notifications carry no signature",
  semaphore: "Semaphore notifications carry no signature",
  slack_incoming: "Slack-compatible incoming webhooks are posted by scripts, no signature",
  sonarr: "Sonarr webhooks use optional HTTP Basic credentials, no signature",
  splunk: "Splunk webhook alert actions carry no signature",
  statuspage: "Statuspage webhooks carry no signature",
  teamcity: "the tcWebHooks plugin sends no signature",
  thinkst: "Thinkst Canary webhooks carry no signature",
  template: "any service posts to it; the sender is authenticated by the API key in the URL only",
  travis:
    "Travis signs with its private RSA key (public-key verification), not a shared secret the kit's schemes check",
  updown: "updown.io webhooks carry no signature",
  uptimerobot: "UptimeRobot alert webhooks carry no signature",
  wordpress: "WordPress (HookPress / Jetpack) webhooks carry no signature",
  zabbix: "Zabbix media-type scripts are written by the user, no signature",
  zapier: "Zapier webhooks are configured by the user, no signature",
};

/** Names a doc.md writes as code spans, including shell patterns (`charge.*`). */
function codeSpans(doc: string): string[] {
  return [...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
}

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

  it.each(folders)("%s: doc.md names every event (a code span, or a pattern matching it)", async (folder) => {
    const doc = fs.readFileSync(path.join(root, folder, "doc.md"), "utf8");
    const spans = codeSpans(doc);
    for (const integration of await exportedBy(folder)) {
      const unnamed = integration.eventTypes.filter(
        (event) =>
          !spans.some((span) => span === event || (span.includes("*") && wildcardMatch(span, event))),
      );
      expect({ integration: integration.name, unnamed }).toEqual({
        integration: integration.name,
        unnamed: [],
      });
    }
  });

  it("every integration declares its service's signature, or is listed as unsigned with a reason", () => {
    const undeclared = integrations
      .filter((i) => i.signature === undefined && UNSIGNED[i.name] === undefined)
      .map((i) => i.name);
    expect(undeclared).toEqual([]);
    // The list holds only integrations that exist and really declare no signature.
    const stale = Object.keys(UNSIGNED).filter((name) => {
      const i = integrations.find((x) => x.name === name);
      return i === undefined || i.signature !== undefined;
    });
    expect(stale).toEqual([]);
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
        const outcome = await dispatchWebhookAsync(integration, caseRequest(c));
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
              (
                await dispatchWebhookAsync(
                  integration,
                  fixtureRequest(integration, path.join(root, folder), fixture),
                )
              ).event,
            );
        } catch {
          // A fixture of another integration of this folder, or an error fixture.
        }
      }
    }
    // A handler function may serve several event names, or several integrations of one folder
    // (GitHub Sponsors is GitHub's view): it is reached when any of them is.
    const reachedHandlers = new Set(
      own.flatMap((integration) =>
        [...(reached.get(integration.name) ?? [])].map(
          (event): unknown => (integration.events as Record<string, unknown>)[event],
        ),
      ),
    );
    for (const integration of own) {
      const handlerOf = (event: string): unknown => (integration.events as Record<string, unknown>)[event];
      const unreached = integration.eventTypes.filter((h) => !reachedHandlers.has(handlerOf(h)));
      expect({ integration: integration.name, unreached }).toEqual({
        integration: integration.name,
        unreached: [],
      });
    }
  });
});
