import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export interface RunningProcess {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves with the first match of `re` in stdout+stderr, or rejects after `timeoutMs`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node <args>` from the repository root, capturing its output. */
export function startProcess(args: string[], env: Record<string, string> = {}): RunningProcess {
  return captured(spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: "pipe" }));
}

/**
 * Starts a shell command line with bash in `cwd`, capturing its output. It runs in its own process
 * group, and `stop` signals the whole group: commands such as `npm start` or `npx …` fork the
 * process that does the work.
 */
export function startShell(command: string, cwd: string): RunningProcess {
  const child = spawn("bash", ["-c", command], { cwd, detached: true, stdio: "pipe" });
  return captured(child, (signal) => process.kill(-child.pid!, signal));
}

function captured(
  child: ChildProcessWithoutNullStreams,
  kill: (signal: NodeJS.Signals) => void = (signal) => child.kill(signal),
): RunningProcess {
  let out = "";
  const waiters: (() => void)[] = [];
  const onData = (d: Buffer): void => {
    out += d.toString("utf8");
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => out,
    waitFor(re, timeoutMs = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Timed out waiting for ${String(re)}; output:\n${out}`)),
          timeoutMs,
        );
        const check = (): void => {
          const m = out.match(re);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            const how = child.exitCode ?? child.signalCode;
            reject(new Error(`Process exited (${how}) before ${String(re)}; output:\n${out}`));
          } else {
            waiters.push(check);
          }
        };
        check();
        void exited.then(() => {
          for (const w of waiters.splice(0)) w();
        });
      });
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) kill(signal);
      return exited;
    },
  };
}

/** Runs `node <args>` to completion. */
export async function runProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const p = startProcess(args, env);
  const code = await p.stop("SIGCONT");
  return { code, output: p.output() };
}
