import type { FetchResult } from "../../domain/messages/types.js";

/** GET /messages's response fields (besides result and msg). */
export function presentFetch(r: FetchResult): Record<string, unknown> {
  return {
    anchor: r.anchor,
    found_anchor: r.foundAnchor,
    found_oldest: r.foundOldest,
    found_newest: r.foundNewest,
    history_limited: r.historyLimited,
    messages: r.messages,
  };
}
