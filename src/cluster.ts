import cluster from "node:cluster";
import type { Worker } from "node:cluster";
import { withYoungGeneration } from "./lib/young-generation.js";
import type { Logger } from "./lib/logger.js";

/** What a worker tells the primary once it serves (after migrations and the first-start bootstrap). */
export interface WorkerReady {
  type: "chat-server-ready";
  url: string;
}

/**
 * Why `serve --workers N` cannot run with these settings, or undefined when it can (N is a whole
 * number ≥ 1: the command line checked it). Several
 * processes need a store they can all open (PostgreSQL) and Redis for what they share (event
 * queues, rate limits, invalidations): SQLite and in-process queues belong to one process.
 */
export function workersProblem(opts: {
  workers: number;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  botserverConfig: string | undefined;
}): string | undefined {
  if (opts.workers <= 1) return undefined;
  const missing: string[] = [];
  if (opts.databaseUrl === undefined || !/^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    missing.push("PostgreSQL (--database postgres://…)");
  }
  if (opts.redisUrl === undefined || opts.redisUrl === "") missing.push("Redis (--redis redis://…)");
  if (missing.length > 0) {
    return `--workers ${opts.workers} needs ${missing.join(" and ")}: with SQLite and in-process event queues only one process can serve (see docs/deploy.md)`;
  }
  if (opts.botserverConfig !== undefined) {
    return "--botserver-config cannot be combined with --workers: run `botserver` as its own process";
  }
  return undefined;
}

/** In a worker: tells the primary this process serves. */
export function reportWorkerReady(url: string): void {
  if (cluster.isWorker && process.send !== undefined) {
    const message: WorkerReady = { type: "chat-server-ready", url };
    process.send(message);
  }
}

function isReady(message: unknown): message is WorkerReady {
  return (
    typeof message === "object" && message !== null && (message as WorkerReady).type === "chat-server-ready"
  );
}

/**
 * The primary of `serve --workers N`: forks the first worker and waits until it serves (it applies
 * migrations and creates the organization on first start, which must happen once), then the
 * others; the workers share the listening port (node:cluster hands out connections). A worker that
 * dies is replaced after a short delay; SIGINT/SIGTERM stop every worker and then the primary.
 * Resolves with the URL once all N serve.
 */
export async function runPrimary(workers: number, logger: Logger): Promise<string> {
  let stopping = false;
  const alive = new Set<Worker>();
  cluster.setupPrimary({ execArgv: withYoungGeneration() });
  const fork = (): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const worker = cluster.fork();
      alive.add(worker);
      let ready = false;
      worker.on("message", (message: unknown) => {
        if (!isReady(message)) return;
        ready = true;
        resolve(message.url);
      });
      worker.once("exit", (code, signal) => {
        alive.delete(worker);
        if (!ready) {
          reject(
            new Error(`worker ${worker.process.pid} exited before serving (code ${code}, signal ${signal})`),
          );
          return;
        }
        if (stopping) return;
        logger.warn("worker died; starting another", { pid: worker.process.pid, code, signal });
        setTimeout(() => {
          if (!stopping)
            void fork().catch((err: unknown) =>
              logger.error("replacing a worker failed", { error: err as Error }),
            );
        }, 1000);
      });
    });

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, stopping ${alive.size} workers`);
    if (alive.size === 0) process.exit(0);
    for (const worker of alive) {
      worker.once("exit", () => {
        if (alive.size === 0) process.exit(0);
      });
      worker.process.kill(signal);
    }
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));

  const url = await fork();
  await Promise.all(Array.from({ length: workers - 1 }, () => fork()));
  return url;
}
