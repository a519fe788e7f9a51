import { Worker } from "node:worker_threads";
import { RateLimitedError } from "../../src/errors.js";
import { RENDER_LIMIT_MS, TemplateError } from "./render-protocol.js";
import type { ReadyReply, RenderJob, RenderReply } from "./render-protocol.js";

/**
 * Templates are rendered off the server's event loop, in one thread of their own
 * (render-worker.ts), one pair at a time: a slow template delays other templates, never a request.
 * LiquidJS's limits (engine.ts: RENDER_LIMIT_MS, the memory budget) bound each render; if one runs
 * past HARD_LIMIT_MS anyway, the thread is ended and a new one started for the next. At most
 * MAX_QUEUED renders wait; one more is answered 429 (Retry-After: 1).
 */

/** The thread's script: registers the TypeScript loader when the server runs its sources. */
const SCRIPT = new URL("../../bin/template-worker.js", import.meta.url);

/**
 * A render's upper bound, from the moment the thread starts it (its own limit is RENDER_LIMIT_MS):
 * a new thread's start-up (loading its modules, which a busy machine may take seconds for) is not
 * counted — the timer starts once the thread says it is ready.
 */
export const HARD_LIMIT_MS = 10 * RENDER_LIMIT_MS;
/** Renders that may wait for the thread. */
export const MAX_QUEUED = 256;

/** What the templates see; headers by lower-case name (credential-named ones are hidden from them). */
export interface RenderInput {
  payload: unknown;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
}

interface Pending {
  job: RenderJob;
  resolve: (value: { topic: string; body: string }) => void;
  reject: (err: unknown) => void;
}

export class TemplateRenderPool {
  private worker: Worker | undefined;
  private readonly queue: Pending[] = [];
  private active: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The thread has loaded its modules (its ready message came). */
  private ready = false;
  private nextId = 1;

  constructor(private readonly script: URL = SCRIPT) {}

  /** Renders a topic and a body template; TemplateError on any failure of theirs. */
  render(
    templates: { topic: string; body: string },
    input: RenderInput,
  ): Promise<{ topic: string; body: string }> {
    if (this.queue.length >= MAX_QUEUED) return Promise.reject(new RateLimitedError(1));
    return new Promise((resolve, reject) => {
      const job: RenderJob = { id: this.nextId++, templates, ...input };
      this.queue.push({ job, resolve, reject });
      this.next();
    });
  }

  /** Ends the thread (renders waiting are refused). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.queue.splice(0)) p.reject(new Error("the template renderer was closed"));
    this.finish()?.reject(new Error("the template renderer was closed"));
    if (worker !== undefined) await worker.terminate();
  }

  private next(): void {
    if (this.active !== undefined) return;
    const pending = this.queue.shift();
    if (pending === undefined) return;
    this.active = pending;
    const worker = this.thread();
    if (this.ready) this.startTimer(worker);
    worker.ref();
    worker.postMessage(pending.job);
  }

  private startTimer(worker: Worker): void {
    this.timer = setTimeout(() => this.overrun(worker), HARD_LIMIT_MS);
    this.timer.unref();
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(this.script);
    this.ready = false;
    worker.unref();
    worker.on("message", (reply: RenderReply | ReadyReply) => {
      if ("ready" in reply) this.started(worker);
      else this.receive(worker, reply);
    });
    worker.on("error", (err) => this.lost(worker, err));
    worker.on("exit", (code) =>
      this.lost(worker, new Error(`the template renderer's thread exited (code ${code})`)),
    );
    this.worker = worker;
    return worker;
  }

  /** The active render, no longer active (its timer cleared). */
  private finish(): Pending | undefined {
    const done = this.active;
    this.active = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    return done;
  }

  /** The thread is ready: the render waiting for it is timed from now. */
  private started(worker: Worker): void {
    if (worker !== this.worker) return;
    this.ready = true;
    if (this.active !== undefined && this.timer === undefined) this.startTimer(worker);
  }

  private receive(worker: Worker, reply: RenderReply): void {
    if (worker !== this.worker || this.active?.job.id !== reply.id) return;
    const done = this.finish()!;
    worker.unref();
    if (reply.ok) {
      done.resolve(reply.value);
    } else if ("templateError" in reply) {
      const e = reply.templateError;
      done.reject(new TemplateError(e.template, e.reason, e.line, e.column));
    } else {
      done.reject(new Error(`template render failed: ${reply.message}`));
    }
    this.next();
  }

  /** A render ran past the hard limit: the thread is ended, the render refused, the next goes on. */
  private overrun(worker: Worker): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    void worker.terminate();
    this.finish()?.reject(
      new TemplateError(
        "body",
        `the templates took longer than ${HARD_LIMIT_MS} ms to render`,
        undefined,
        undefined,
      ),
    );
    this.next();
  }

  /** The thread failed or exited: the active render fails, the next starts a new thread. */
  private lost(worker: Worker, err: unknown): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.finish()?.reject(err);
    this.next();
  }
}

/** The process's renderer, shared by the template integration and the preview endpoint. */
export const templateRenderer = new TemplateRenderPool();
