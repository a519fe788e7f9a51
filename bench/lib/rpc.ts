/**
 * A tiny request/response protocol over the IPC channel of a forked child (`child_process.fork`),
 * so the orchestrator can drive a server process it does not share an event loop with.
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { YOUNG_GENERATION_FLAG } from "../../src/lib/young-generation.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Request {
  id: number;
  cmd: string;
  args: unknown;
}
interface Response {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export interface ChildHandle {
  pid: number;
  child: ChildProcess;
  call<T>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the child to close (cmd "close"), then waits for its exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/** Forks `node bin/run-ts.js bench/child.ts <mode>` with an IPC channel; resolves when it says "ready". */
export async function spawnChild(
  mode: string,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<ChildHandle & { ready: unknown }> {
  const child = fork(
    path.join(ROOT, "bin/run-ts.js"),
    [path.join(ROOT, "bench/child.ts"), mode, ...(options.args ?? [])],
    {
      cwd: ROOT,
      // A chat server runs with the Node options `npm start` passes.
      execArgv: [...(mode === "chat" ? [YOUNG_GENERATION_FLAG] : []), ...(options.execArgv ?? [])],
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  let seq = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let readyResolve!: (v: unknown) => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<unknown>((res, rej) => {
    readyResolve = res;
    readyReject = rej;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.on("message", (msg: Response | { ready: unknown }) => {
    if ("ready" in msg) {
      readyResolve(msg.ready);
      return;
    }
    const p = pending.get(msg.id);
    if (p === undefined) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new Error(`child ${mode}: ${msg.error ?? "failed"}`));
  });
  child.once("exit", (code, signal) => {
    const err = new Error(`child ${mode} exited (code ${code}, signal ${signal})`);
    readyReject(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  });
  const readyValue = await ready;
  return {
    pid: child.pid!,
    child,
    ready: readyValue,
    call<T>(cmd: string, args: unknown = {}, timeoutMs = 120_000): Promise<T> {
      const id = ++seq;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`child ${mode}: '${cmd}' timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v as T);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        child.send({ id, cmd, args } satisfies Request);
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ id: ++seq, cmd: "close", args: {} } satisfies Request);
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type Handler = (args: never) => unknown;

/** Child side: answers requests with `handlers[cmd]`; "close" runs `onClose` then exits. */
export function serveRpc(
  handlers: Record<string, Handler>,
  onClose: () => Promise<void>,
  ready: unknown,
): void {
  const send = (msg: Response | { ready: unknown }): void => {
    process.send!(msg);
  };
  process.on("message", (msg: Request) => {
    if (msg.cmd === "close") {
      void onClose().finally(() => process.exit(0));
      return;
    }
    const handler = handlers[msg.cmd];
    if (handler === undefined) {
      send({ id: msg.id, ok: false, error: `unknown command ${msg.cmd}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(msg.args as never))
      .then(
        (result) => send({ id: msg.id, ok: true, result }),
        (err: unknown) =>
          send({
            id: msg.id,
            ok: false,
            error: err instanceof Error ? (err.stack ?? err.message) : String(err),
          }),
      );
  });
  process.on("disconnect", () => process.exit(0));
  send({ ready });
}
