/**
 * The template renderer's thread (render-pool.ts): renders one template pair per message, so that
 * no template holds the server's event loop. LiquidJS's own limits (engine.ts) still bound each
 * render; the pool ends this thread if one runs past its hard limit anyway.
 */
import { parentPort } from "node:worker_threads";
import { HeadersDrop, renderTemplates } from "./engine.js";
import { TemplateError } from "./render-protocol.js";
import type { ReadyReply, RenderJob, RenderReply } from "./render-protocol.js";

function answer(job: RenderJob): RenderReply {
  try {
    const headers = job.headers;
    const value = renderTemplates(job.templates, {
      payload: job.payload,
      headers: new HeadersDrop((name) => headers[name]),
      query: job.query,
    });
    return { id: job.id, ok: true, value };
  } catch (err) {
    if (err instanceof TemplateError) {
      return {
        id: job.id,
        ok: false,
        templateError: { template: err.template, reason: err.reason, line: err.line, column: err.column },
      };
    }
    return { id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

const port = parentPort;
if (port !== null) {
  port.on("message", (job: RenderJob) => port.postMessage(answer(job)));
  const ready: ReadyReply = { ready: true };
  port.postMessage(ready);
}
