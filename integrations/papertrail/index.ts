import { BadRequestError } from "../../src/errors.js";
import { defineIntegration, payloadField } from "../kit/index.js";
import type { Wild } from "../kit/index.js";

/** An ISO 8601 timestamp as Zulip's `<time:…>` (Python's isoformat: microseconds only when non-zero). */
export function timeMention(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:?\d\d)?$/.exec(iso.trim());
  if (m === null) return `<time:${iso}>`;
  const fraction = (m[3] ?? "").padEnd(6, "0");
  const tz = m[4];
  const zone =
    tz === undefined
      ? ""
      : tz === "Z"
        ? "+00:00"
        : tz.includes(":")
          ? tz
          : `${tz.slice(0, 3)}:${tz.slice(3)}`;
  return `<time:${m[1] ?? ""}T${m[2] ?? ""}${/^0*$/.test(fraction) ? "" : `.${fraction}`}${zone}>`;
}

function searchMessage(p: Wild): string {
  if (!p.isObject() || !Object.prototype.hasOwnProperty.call(p.value, "events")) {
    throw new BadRequestError("Events key is missing from payload");
  }
  const search = p.get("saved_search");
  const url = search.get("html_search_url").text();
  const events = p.get("events").items();
  const parts = [`[Search for "${search.get("name").text()}"](${url}) found **${events.length}** matches:\n`];
  for (const [i, e] of events.entries()) {
    parts.push(
      `${timeMention(e.get("received_at").text())} - ${e.get("source_name").text()} - ${search.get("query").text()}:\n` +
        `\`\`\` quote\n${e.get("message").text()}\n\`\`\``,
    );
    if (i >= 3) {
      parts.push(`[See more](${url})`);
      break;
    }
  }
  return parts.join("\n");
}

/**
 * Papertrail: POST /api/v1/external/papertrail from a saved search's Webhook alert. The JSON is in
 * the `payload` form field; at most four matches are quoted, then a "See more" link.
 */
export default defineIntegration({
  name: "papertrail",
  displayName: "Papertrail",
  categories: ["monitoring"],
  description: "Log lines matching a Papertrail saved search.",
  body: payloadField("payload"),
  classify: () => "search",
  events: { search: (p) => ({ topic: "logs", body: searchMessage(p) }) },
  unfilteredEvents: ["search"],
});
