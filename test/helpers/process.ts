import { spawn } from "node:child_process";
import fs from "node:fs";
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
 * group, and `stop` signals the whole group and resolves once every process of the group has
 * exited: commands such as `npm start` or `npx …` fork the process that does the work, which may
 * still be shutting down (writing its data folder) after the shell is gone.
 */
export function startShell(command: string, cwd: string): RunningProcess {
  const child = spawn("bash", ["-c", command], { cwd, detached: true, stdio: "pipe" });
  return captured(
    child,
    (signal) => process.kill(-child.pid!, signal),
    () => groupGone(child.pid!),
  );
}

/** Whether a process of group `pgid` is running (not one that exited and awaits its parent). */
function groupRunning(pgid: number): boolean {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (command) state ppid pgrp …": the command may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}

async function groupGone(pgid: number): Promise<void> {
  while (groupRunning(pgid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function captured(
  child: ChildProcessWithoutNullStreams,
  kill: (signal: NodeJS.Signals) => void = (signal) => child.kill(signal),
  gone: () => Promise<void> = () => Promise.resolve(),
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
      const code = await exited;
      await gone();
      return code;
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
