/** Entry point of `bin/botserver.js`. Exit codes: 0 after SIGINT/SIGTERM, 1 cannot start, 2 bad usage. */
import { hideBin } from "yargs/helpers";
import { botServerLogger } from "./app.js";
import { ConfigError } from "./config.js";
import { BotStartupError } from "./errors.js";
import { cliOptions, cliParser, runBotServer } from "./main.js";
import { otlpTracesUrl, startTracing, stopTracing } from "../../src/lib/tracing.js";

const argv = await cliParser(hideBin(process.argv))
  .fail((message: string | undefined, err: Error | undefined) => {
    process.stderr.write(
      `Error: ${message ?? err?.message ?? "bad arguments"}\n\nRun with --help for the options.\n`,
    );
    process.exit(2);
  })
  .parseAsync();

try {
  const options = cliOptions(argv);
  const logger = botServerLogger({ format: options.logFormat });
  // OpenTelemetry traces over OTLP when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set.
  if (await startTracing("botserver")) logger.info("exporting traces", { url: otlpTracesUrl() });
  const starting = runBotServer(options, { env: process.env, logger });
  // The signal handlers are installed before the server logs "listening on": a SIGHUP sent as soon
  // as that line appears must reload, never meet Node's default action (which ends the process).
  // Stop taking webhooks, let the messages already accepted finish (up to 30 s), exit.
  const stop = (): void => {
    logger.info("stopping: finishing the messages already accepted");
    void starting.then(async (server) => {
      const drained = Promise.race([server.idle(), new Promise((resolve) => setTimeout(resolve, 30_000))]);
      await server.close();
      await drained;
      await stopTracing();
      process.exit(0);
    });
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // SIGHUP: re-read the config; one reload at a time, the first once the server has started.
  let reloading: Promise<unknown> = starting.catch(() => undefined);
  process.on("SIGHUP", () => {
    logger.info("SIGHUP: reloading the config");
    reloading = reloading.then(async () => {
      await (await starting).reloadConfig();
    });
  });
  await starting;
} catch (err) {
  if (err instanceof ConfigError || err instanceof BotStartupError) {
    process.stderr.write(`Error: ${err.message}\n`);
    process.exit(1);
  }
  if ((err as NodeJS.ErrnoException | null)?.syscall === "listen") {
    process.stderr.write(`Error: cannot listen: ${(err as Error).message}\n`);
    process.exit(1);
  }
  throw err;
}
