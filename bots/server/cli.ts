/** Entry point of `bin/botserver.js`. Exit codes: 0 after SIGINT/SIGTERM, 1 cannot start, 2 bad usage. */
import { hideBin } from "yargs/helpers";
import { stderrLogger } from "./app.js";
import { ConfigError } from "./config.js";
import { BotStartupError } from "./errors.js";
import { cliOptions, cliParser, runBotServer } from "./main.js";

const argv = await cliParser(hideBin(process.argv))
  .fail((message: string | undefined, err: Error | undefined) => {
    process.stderr.write(
      `Error: ${message ?? err?.message ?? "bad arguments"}\n\nRun with --help for the options.\n`,
    );
    process.exit(2);
  })
  .parseAsync();

try {
  const server = await runBotServer(cliOptions(argv), {
    env: process.env,
    logger: stderrLogger,
  });
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
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
