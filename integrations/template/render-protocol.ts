/** The messages between the server's thread and the template renderer's thread (plain, cloneable data). */

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
  /** A TemplateError's fields (engine.ts), rebuilt in the server's thread. */
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
