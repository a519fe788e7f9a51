/**
 * The contract between the server's thread (render-pool.ts) and the template renderer's thread
 * (render-worker.ts, which loads LiquidJS through engine.ts): the messages (plain, cloneable data),
 * the render limit both sides enforce, and the error a failed template becomes.
 */
import { JsonableError } from "../../src/errors.js";

/**
 * Longest render, in milliseconds (LiquidJS renderLimit): how long one template may hold a
 * renderer thread (docs/reliability.md).
 */
export const RENDER_LIMIT_MS = 100;

/** A template that cannot be parsed or rendered; names the template and where, when known. */
export class TemplateError extends JsonableError {
  override readonly code = "BAD_REQUEST";
  constructor(
    readonly template: "topic" | "body",
    readonly reason: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
  ) {
    super(
      `Error in template_${template}` +
        (line === undefined ? "" : ` at line ${line}, column ${column ?? 1}`) +
        `: ${reason}`,
    );
  }
  override data(): Record<string, unknown> {
    return {
      template: `template_${this.template}`,
      ...(this.line === undefined ? {} : { line: this.line, column: this.column ?? 1 }),
    };
  }
}

/** One template pair to render, with what the templates see (headers by lower-case name). */
export interface RenderJob {
  id: number;
  templates: { topic: string; body: string };
  payload: unknown;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
}

export type RenderReply =
  | { id: number; ok: true; value: { topic: string; body: string } }
  /** A TemplateError's fields, rebuilt in the server's thread. */
  | {
      id: number;
      ok: false;
      templateError: {
        template: "topic" | "body";
        reason: string;
        line: number | undefined;
        column: number | undefined;
      };
    }
  | { id: number; ok: false; message: string };

/** The thread's first message, once its modules are loaded: renders are timed from then on. */
export interface ReadyReply {
  ready: true;
}
