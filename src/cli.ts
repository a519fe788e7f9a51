import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { packageVersion } from "./lib/package-version.js";

/* eslint-disable no-console -- this is the command line: it talks to the terminal */

// Each command loads what it runs when it runs (`import()`): `--help` and the small commands do
// not pay for the server's modules, and the compiled build (bin/build.js) puts each in a chunk.

/**
 * What a number option accepts besides being a number: 0 or more for every one (a count, a size, a
 * number of seconds), and these bounds for the rest.
 */
const NUMBER_BOUNDS: Record<string, { max?: number; min?: number; whole?: true }> = {
  port: { max: 65535, whole: true },
  "botserver-port": { max: 65535, whole: true },
  "outgoing-webhook-retry-jitter": { max: 1 },
  "outgoing-webhook-max-attempts": { min: 1, whole: true },
  deliveries: { max: 200, whole: true },
  workers: { min: 1, whole: true },
};

/** Why a number option's value is refused (undefined: accepted). */
export function numberOptionProblem(name: string, value: number): string | undefined {
  if (Number.isNaN(value)) return `--${name} takes a number`;
  const { min = 0, max = Infinity, whole = false } = NUMBER_BOUNDS[name] ?? {};
  if (value >= min && value <= max && (!whole || Number.isInteger(value))) return undefined;
  const what = whole ? "a whole number" : "a number";
  const range = max === Infinity ? `of ${min} or more` : `from ${min} to ${max}`;
  return `--${name} takes ${what} ${range}, not ${value}`;
}

/**
 * yargs renders a command's whole help text as it starts the command's handler, kept in case the
 * handler fails (its `cacheHelpMessage`). Our `.fail` prints one line and never that help, and for
 * `serve` the rendering (string-width over every option) took about a tenth of the start-up's CPU.
 * Turned off on this parser; with a yargs that has no such hook, nothing changes.
 */
function withoutHelpCaching<T extends object>(parser: T): T {
  type Internals = {
    getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
  };
  const usage = (parser as Internals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
  return parser;
}

export async function main(args: string[]): Promise<void> {
  await withoutHelpCaching(yargs(args))
    .scriptName("chat-server")
    .usage("$0 <command> [options]")
    .command(
      "serve",
      "Run the chat server (creates the organization and <data-dir>/zuliprc on first start)",
      (y) =>
        y
          .option("host", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
          .option("port", { type: "number", default: 9991, describe: "Port to listen on" })
          .option("data-dir", {
            type: "string",
            default: "./data",
            describe: "Folder of the SQLite store and zuliprc",
          })
          .option("database", {
            type: "string",
            describe: "Database URL: postgres://user@host/db or sqlite:PATH (default: SQLite in --data-dir)",
          })
          .option("external-url", { type: "string", describe: "URL clients use to reach this server" })
          .option("owner-email", {
            type: "string",
            default: "owner@example.com",
            describe: "Owner account created on first start",
          })
          .option("owner-name", {
            type: "string",
            default: "Organization Owner",
            describe: "Owner's full name",
          })
          .option("owner-password", {
            type: "string",
            describe: "Owner's password on first start (default: generated and printed once)",
          })
          .option("realm-name", {
            type: "string",
            default: "Zulip-compatible chat",
            describe: "Organization name",
          })
          .option("bot-domain", {
            type: "string",
            describe: "Domain of bot emails (default: the owner's email domain)",
          })
          .option("rate-limit", {
            type: "string",
            default: "200/60",
            describe: 'Per-user API limit N/SECONDS, or "off"',
          })
          .option("webhook-rate-limit", {
            type: "string",
            default: "600/60",
            describe:
              'Per-bot incoming-webhook limit N/SECONDS (token bucket), or "off"; a bot\'s config_data webhook_rate_limit overrides it',
          })
          .option("delivery-log", {
            type: "boolean",
            default: true,
            describe:
              "Keep a log of every webhook delivery per bot (GET /api/v1/bots/{id}/deliveries); --no-delivery-log turns it off",
          })
          .option("delivery-log-per-bot", {
            type: "number",
            default: 200,
            describe: "Newest delivery-log entries kept per bot",
          })
          .option("delivery-log-days", {
            type: "number",
            default: 7,
            describe: "Delivery-log entries older than this many days are pruned",
          })
          .option("delivery-log-body-kb", {
            type: "number",
            default: 64,
            describe: "Request and response bodies are logged up to this many KiB",
          })
          .option("max-file-upload-mb", {
            type: "number",
            default: 25,
            describe: "Largest file a user may upload, in MiB (register's max_file_upload_size_mib)",
          })
          .option("max-upload-storage-per-user", {
            type: "number",
            default: 1024,
            describe: "MiB one user's uploads may take together; an upload past it is refused (0 = no cap)",
          })
          .option("log-level", {
            type: "string",
            default: "info",
            choices: ["debug", "info", "warn", "error", "silent"],
            describe: "Log verbosity",
          })
          .option("botserver-config", {
            type: "string",
            describe: "Also run the bot server in this process, with this botserverrc",
          })
          .option("botserver-host", {
            type: "string",
            default: "127.0.0.1",
            describe: "Address of the bot server (with --botserver-config)",
          })
          .option("botserver-port", {
            type: "number",
            default: 5002,
            describe: "Port of the bot server (with --botserver-config)",
          })
          .option("outgoing-webhook-timeout", {
            type: "number",
            default: 10,
            describe: "Seconds an outgoing webhook request may take",
          })
          .option("outgoing-webhook-lease-grace", {
            type: "number",
            default: 30,
            describe:
              "Seconds, after the request timeout, before a job claimed by a process that died during its attempt is retried",
          })
          .option("outgoing-webhook-max-attempts", {
            type: "number",
            default: 8,
            describe:
              "Attempts on timeouts, connection errors and 429/503 answers before a delivery is parked as dead",
          })
          .option("outgoing-webhook-retry-schedule", {
            type: "string",
            default: "5s,5m,30m,2h,5h,10h,10h",
            describe: "Delays before each retry (s, m, h, d; the last repeats), each spread by the jitter",
          })
          .option("outgoing-webhook-retry-jitter", {
            type: "number",
            default: 0.2,
            describe: "Each retry delay is spread at random by up to this fraction either way",
          })
          .option("outgoing-webhook-circuit-threshold", {
            type: "number",
            default: 5,
            describe: "Consecutive failures that open an endpoint's circuit (then one probe at a time)",
          })
          .option("outgoing-webhook-probe-interval", {
            type: "number",
            default: 60,
            describe: "Seconds between probes of an endpoint whose circuit is open",
          })
          .option("outgoing-webhook-disable-after-days", {
            type: "number",
            default: 5,
            describe: "An endpoint failing this many days without a success is disabled until re-enabled",
          })
          .option("outgoing-webhook-allow", {
            type: "string",
            array: true,
            default: [] as string[],
            describe:
              "An internal target outgoing webhooks may reach, HOST_OR_CIDR[:PORT] (repeatable; e.g. 127.0.0.1:5002); only public addresses otherwise",
          })
          .option("integrations-path", {
            type: "string",
            array: true,
            default: [] as string[],
            describe:
              "An integration written outside this repository: its folder, module or package (repeatable; chat-server new-integration writes one)",
          })
          .option("max-bots-per-user", {
            type: "number",
            default: 100,
            describe: "Active bots one user may own (0 = no cap)",
          })
          .option("outgoing-webhook-max-response-kb", {
            type: "number",
            default: 1024,
            describe:
              "An outgoing webhook's answer is read up to this many KiB; a larger one fails the delivery",
          })
          .option("headers-timeout", {
            type: "number",
            default: 10,
            describe: "Seconds a client may take to send a request's headers (then 408)",
          })
          .option("request-timeout", {
            type: "number",
            default: 60,
            describe: "Seconds a client may take to send a whole request, body included (then 408)",
          })
          .option("keep-alive-timeout", {
            type: "number",
            default: 65,
            describe: "Seconds an idle keep-alive connection stays open",
          })
          .option("max-public-requests-per-ip", {
            type: "number",
            default: 256,
            describe: "Requests without credentials one IP may have in flight (more get 429; 0 = no cap)",
          })
          .option("max-queues-per-user", {
            type: "number",
            default: 50,
            describe:
              "Event queues one user may hold; registering one more discards their least recently used (0 = no cap)",
          })
          .option("metrics-token", {
            type: "string",
            default: process.env["CHAT_SERVER_METRICS_TOKEN"],
            defaultDescription: "$CHAT_SERVER_METRICS_TOKEN",
            describe:
              "Bearer token that may read GET /metrics from any address (default: loopback clients only)",
          })
          .option("redis", {
            type: "string",
            describe:
              "Redis URL (redis://host:6379): event queues, rate limits and invalidations shared by every server process",
          })
          .option("database-connect-timeout", {
            type: "number",
            default: 5,
            describe: "Seconds to open a PostgreSQL connection or wait for a free one (else 503)",
          })
          .option("database-statement-timeout", {
            type: "number",
            default: 5,
            describe:
              "PostgreSQL statement_timeout in seconds; an unanswered statement is abandoned 1 s later (503)",
          })
          .option("redis-connect-timeout", {
            type: "number",
            default: 3,
            describe: "Seconds to open a Redis connection",
          })
          .option("redis-command-timeout", {
            type: "number",
            default: 2,
            describe: "Seconds a Redis command may go unanswered (else 503)",
          })
          .option("redis-prefix", {
            type: "string",
            default: "chat:",
            describe: "Prefix of every Redis key and channel (one per deployment sharing a Redis)",
          })
          .option("workers", {
            type: "number",
            default: 1,
            describe:
              "Server processes on this port (node:cluster); more than 1 needs --database postgres://… and --redis",
          }),
      async (argv) => {
        const { serve } = await import("./serve-command.js");
        await serve(argv);
      },
    )
    .command(
      "send-webhook-fixture",
      "Post an integration's fixture to a running server, as the service would",
      (y) =>
        y
          .option("integration", {
            type: "string",
            demandOption: true,
            describe: "Integration name (github, jira, …)",
          })
          .option("fixture", {
            type: "string",
            demandOption: true,
            describe: "Fixture or recorded case name",
          })
          .option("stream", {
            type: "string",
            describe: "Stream to post to (default: a private message to the bot's owner)",
          })
          .option("topic", { type: "string", describe: "Topic override" })
          .option("site", { type: "string", describe: "Server URL (default: the zuliprc's site)" })
          .option("api-key", {
            type: "string",
            describe:
              "API key to post with (default: the integration's incoming-webhook bot of the zuliprc's user, created when missing)",
          })
          .option("zuliprc", {
            type: "string",
            default: "./data/zuliprc",
            describe: "zuliprc to read site and key from",
          })
          .option("integrations-path", {
            type: "string",
            array: true,
            default: [] as string[],
            describe:
              "An integration of your own whose fixture this is: its folder, module or package, as serve takes it (repeatable)",
          }),
      async (argv) => {
        const { sendWebhookFixture } = await import("./tools/send-webhook-fixture.js");
        const { readZuliprc } = await import("./tools/zuliprc.js");
        const rc =
          argv.site !== undefined && argv.apiKey !== undefined ? undefined : readZuliprc(argv.zuliprc);
        const result = await sendWebhookFixture({
          site: argv.site,
          apiKey: argv.apiKey,
          rc,
          integration: argv.integration,
          fixture: argv.fixture,
          stream: argv.stream,
          topic: argv.topic,
          integrationsPath: argv.integrationsPath,
        });
        if (result.bot !== undefined) {
          console.log(`As ${result.bot.email}${result.bot.created ? " (created now)" : ""}`);
        }
        console.log(`POST ${result.url}\n${result.status} ${result.body}`);
        if (result.streamExists === false) {
          console.error(
            `Stream '${argv.stream}' does not exist, so nothing was posted (the server answers 200, as Zulip does, and tells the bot's owner). Create it in the web app or pass an existing --stream.`,
          );
          process.exitCode = 1;
        }
        if (result.status >= 400) process.exitCode = 1;
      },
    )
    .command(
      "new-integration <name>",
      "Write a working skeleton of an integration of your own (definition, one event, a fixture and its expected message, a doc) into DIR/NAME",
      (y) =>
        y
          .positional("name", { type: "string", demandOption: true, describe: "Its name: a-z, 0-9 and _" })
          .option("dir", { type: "string", default: ".", describe: "Folder to write it in" }),
      async (argv) => {
        const { writeSkeleton } = await import("./tools/integration-scaffold.js");
        const folder = writeSkeleton(argv.name, argv.dir);
        console.log(`Wrote the integration ${argv.name} in ${folder}.`);
        console.log(`Test it:  npx chat-server test-integration ${folder}`);
        console.log(`Load it:  npx chat-server serve --integrations-path ${folder}`);
      },
    )
    .command(
      "export-template",
      "Write a template bot's saved templates as an integration module (DIR/NAME), with fixtures from its logged deliveries",
      (y) =>
        y
          .option("bot", {
            type: "string",
            demandOption: true,
            describe: "The template bot: its email, short name or full name",
          })
          .option("name", {
            type: "string",
            demandOption: true,
            describe: "The new integration's name: a-z, 0-9 and _",
          })
          .option("dir", { type: "string", default: ".", describe: "Folder to write it in" })
          .option("deliveries", {
            type: "number",
            default: 20,
            describe: "How many of its last deliveries become fixtures (0-200)",
          })
          .option("zuliprc", {
            type: "string",
            default: "./data/zuliprc",
            describe: "zuliprc of the bot's owner (or an administrator)",
          }),
      async (argv) => {
        const { exportTemplate } = await import("./tools/export-template.js");
        const { readZuliprc } = await import("./tools/zuliprc.js");
        const folder = await exportTemplate(readZuliprc(argv.zuliprc), {
          bot: argv.bot,
          name: argv.name,
          dir: argv.dir,
          num: argv.deliveries,
        });
        console.log(`Wrote the integration ${argv.name} in ${folder}.`);
        console.log(`Test it:  npx chat-server test-integration ${folder}`);
        console.log(`Load it:  npx chat-server serve --integrations-path ${folder}`);
      },
    )
    .command(
      "test-integration <dir>",
      "Send each fixtures/<name>.json of an integration through it and compare with fixtures/expected/<name>.json; exit 1 on a difference",
      (y) =>
        y.positional("dir", { type: "string", demandOption: true, describe: "The integration's folder" }),
      async (argv) => {
        const { fixtureRunsText, testIntegration } = await import("./tools/integration-scaffold.js");
        const runs = await testIntegration(argv.dir);
        console.log(fixtureRunsText(runs));
        if (runs.length === 0 || runs.some((r) => !r.ok)) process.exitCode = 1;
      },
    )
    .command(
      "integrations",
      "List the incoming-webhook integrations with their options and events",
      (y) => y.option("json", { type: "boolean", default: false, describe: "Print JSON" }),
      async (argv) => {
        const { integrations } = await import("../integrations/index.js");
        const { integrationSummary } = await import("./domain/webhooks/integration-summary.js");
        const list = integrations.map(integrationSummary).map((i) => ({
          name: i.name,
          displayName: i.display_name,
          url: i.url,
          options: i.options.map(({ key, label }) => ({ key, label })),
          events: i.events,
        }));
        if (argv.json) {
          console.log(JSON.stringify(list, null, 2));
          return;
        }
        for (const i of list) {
          console.log(`${i.name} (${i.displayName}) ${i.url}`);
          for (const o of i.options) console.log(`  option ${o.key}: ${o.label}`);
          console.log(`  events: ${i.events.join(", ")}`);
        }
      },
    )
    .command(
      "integration-url <integration>",
      "Create (or reuse) an incoming-webhook bot and print the URL to paste into a service",
      (y) =>
        y
          .positional("integration", {
            type: "string",
            demandOption: true,
            describe: "Integration (github, …)",
          })
          .option("stream", { type: "string", demandOption: true, describe: "Stream the messages go to" })
          .option("topic", {
            type: "string",
            describe: "Topic for every message (default: the integration's)",
          })
          .option("bot", {
            type: "string",
            describe: "The bot's short name (default: the integration's name)",
          })
          .option("zuliprc", {
            type: "string",
            default: "./data/zuliprc",
            describe: "zuliprc of the user who will own the bot (the organization owner's)",
          }),
      async (argv) => {
        const { integrationUrl, integrationUrlText, serverIntegration } =
          await import("./tools/integration-url.js");
        const { readZuliprc } = await import("./tools/zuliprc.js");
        const rc = readZuliprc(argv.zuliprc);
        const integration = await serverIntegration(rc, argv.integration);
        const result = await integrationUrl(rc, integration, {
          stream: argv.stream,
          topic: argv.topic,
          bot: argv.bot,
        });
        process.stdout.write(integrationUrlText(integration, result, rc.site));
        if (!result.streamExists) {
          process.stderr.write(
            `Warning: the stream '${argv.stream}' does not exist: create it (or subscribe to it) before the service posts, or its messages are refused.\n`,
          );
        }
      },
    )
    .command(
      "botserverrc",
      "Print botserverrc sections for outgoing-webhook bots you own",
      (y) =>
        y
          .option("bot", {
            type: "string",
            describe: "The bot's email (default: every outgoing-webhook bot you own)",
          })
          .option("name", {
            type: "string",
            describe:
              "Section name: the bundled bot to run (default: from the email, helloworld-bot@… → helloworld)",
          })
          .option("zuliprc", {
            type: "string",
            default: "./data/zuliprc",
            describe: "zuliprc of the bot's owner",
          })
          .option("output", {
            type: "string",
            describe: "Write the section(s) to this file, mode 0600 (default: standard output)",
          }),
      async (argv) => {
        const { botserverrcSection, fetchAllBotserverrcEntries, fetchBotserverrcEntry } =
          await import("./tools/botserverrc.js");
        const { readZuliprc } = await import("./tools/zuliprc.js");
        const { writeSecretFile } = await import("./secure-files.js");
        const rc = readZuliprc(argv.zuliprc);
        const entries =
          argv.bot === undefined
            ? await fetchAllBotserverrcEntries(rc)
            : [await fetchBotserverrcEntry(rc, argv.bot, argv.name)];
        if (entries.length === 0) throw new Error(`${rc.email} owns no outgoing-webhook bot`);
        const text = entries.map(botserverrcSection).join("\n");
        if (argv.output === undefined) process.stdout.write(text);
        else writeSecretFile(argv.output, text);
      },
    )
    .command(
      "create-bot",
      "Create an outgoing-webhook bot for a bundled bot and print its botserverrc section",
      (y) =>
        y
          .option("name", { type: "string", demandOption: true, describe: "Bundled bot (helloworld, …)" })
          .option("zuliprc", {
            type: "string",
            default: "./data/zuliprc",
            describe: "zuliprc of the user who will own the bot",
          })
          .option("payload-url", {
            type: "string",
            default: "http://127.0.0.1:5002/",
            describe: "The bot server's URL",
          })
          .option("full-name", { type: "string", describe: "The bot's full name (default: --name)" })
          .option("short-name", { type: "string", describe: "The bot's short name (default: --name)" })
          .option("output", {
            type: "string",
            describe: "Write the section(s) to this file, mode 0600 (default: standard output)",
          }),
      async (argv) => {
        const { botserverrcSection, createBotserverBot } = await import("./tools/botserverrc.js");
        const { readZuliprc } = await import("./tools/zuliprc.js");
        const { writeSecretFile } = await import("./secure-files.js");
        const { entry, created } = await createBotserverBot(readZuliprc(argv.zuliprc), {
          name: argv.name,
          payloadUrl: argv.payloadUrl,
          fullName: argv.fullName,
          shortName: argv.shortName,
        });
        console.error(
          created
            ? `Created the outgoing-webhook bot ${entry.email} (payload URL ${argv.payloadUrl}).`
            : `The bot ${entry.email} exists already; its section follows.`,
        );
        if (argv.output === undefined) process.stdout.write(botserverrcSection(entry));
        else writeSecretFile(argv.output, botserverrcSection(entry));
      },
    )
    .command(
      "run-bot <name>",
      "Run a bundled bot (or --bot-path) as an event-queue client, without a bot server",
      (y) =>
        y
          .positional("name", { type: "string", demandOption: true, describe: "Bundled bot (helloworld, …)" })
          .option("zuliprc", { type: "string", demandOption: true, describe: "The bot's zuliprc" })
          .option("bot-config-file", { type: "string", describe: "INI file with the bot's own settings" })
          .option("bot-path", {
            type: "string",
            describe: "Module of a bot of your own (defineBot default export)",
          })
          .option("log-format", { choices: ["text", "json"] as const, default: "text" as const }),
      async (argv) => {
        const { runBotCommand } = await import("../bots/runner/command.js");
        await runBotCommand({
          name: argv.name,
          zuliprc: argv.zuliprc,
          logFormat: argv["log-format"],
          ...(argv["bot-config-file"] === undefined ? {} : { botConfigFile: argv["bot-config-file"] }),
          ...(argv["bot-path"] === undefined ? {} : { botPath: argv["bot-path"] }),
        });
      },
    )
    .demandCommand(
      1,
      "Name a command: serve, send-webhook-fixture, new-integration, export-template, test-integration, integrations, integration-url, botserverrc, create-bot, run-bot",
    )
    .strict()
    // yargs turns a number option's unreadable value into NaN and passes any number on: refuse
    // both instead of running with them. (Each option is also there in camelCase: skipped.)
    .check((argv) => {
      for (const [name, value] of Object.entries(argv)) {
        if (typeof value !== "number" || /[A-Z]/.test(name)) continue;
        const problem = numberOptionProblem(name, value);
        if (problem !== undefined) throw new Error(problem);
      }
      return true;
    })
    .fail((msg: string | null, err: Error | undefined) => {
      // One clear line, no usage dump and no stack trace (logs at --log-level debug have details).
      console.error(err instanceof Error ? err.message : (msg ?? "Failed"));
      if (!(err instanceof Error)) console.error("Run with --help for usage.");
      process.exit(1);
    })
    .version(packageVersion())
    .help()
    .alias("h", "help")
    .parseAsync();
}

await main(hideBin(process.argv)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
