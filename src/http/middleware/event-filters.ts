import type { Middleware } from "koa";
import { BadRequestError } from "../../errors.js";
import type { AppState } from "../state.js";

const FILTER_ARGS = ["only_events", "exclude_events"] as const;

/**
 * Bounds the cost of a webhook's event filters before any integration runs: `only_events` and
 * `exclude_events` may list at most 100 patterns of at most 200 characters each (a longer list is
 * a 400 BAD_REQUEST). Arguments that are not JSON lists of strings are left to the pipeline, which
 * names them in its own error.
 */
export function eventFilterBounds(webhooks: {
  eventFiltersProblem(argName: string, patterns: readonly string[]): string | undefined;
}): Middleware<AppState> {
  return async function eventFilterBoundsMiddleware(ctx, next) {
    if (!ctx.path.startsWith("/api/v1/external/")) {
      await next();
      return;
    }
    for (const name of FILTER_ARGS) {
      const raw = ctx.state.params[name];
      if (raw === undefined || raw === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        continue;
      }
      if (!Array.isArray(value)) continue;
      const patterns = value.filter((v): v is string => typeof v === "string");
      const problem = webhooks.eventFiltersProblem(name, patterns);
      if (problem !== undefined) throw new BadRequestError(problem);
    }
    await next();
  };
}
