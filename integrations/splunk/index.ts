import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { MAX_TOPIC_LENGTH, normalizeBody } from "../kit/message-text.js";

/** A field of the alert, or Zulip's "Missing <name>" placeholder when Splunk left it out. */
function orMissing(w: Wild | undefined, name: string): string {
  return w?.text() ?? `Missing ${name}`;
}

/**
 * Splunk's webhook alert action: a saved search triggered, with its first result's host, source
 * and raw event. The topic is the search's name (cut to 57 characters and "..." from 60 on, as
 * Zulip's Splunk integration does).
 */
export default defineIntegration({
  name: "splunk",
  displayName: "Splunk",
  categories: ["monitoring"],
  description: "Posts Splunk saved-search alerts with their first result.",
  events: {
    alert: (p) => {
      const search = orMissing(p.opt("search_name"), "search_name");
      const result = p.opt("result");
      const chars = Array.from(search);
      const topic =
        chars.length >= MAX_TOPIC_LENGTH ? `${chars.slice(0, MAX_TOPIC_LENGTH - 3).join("")}...` : search;
      return {
        topic,
        body: normalizeBody(
          "Splunk alert from saved search:\n" +
            `* **Search**: [${search}](${orMissing(p.opt("results_link"), "results_link")})\n` +
            `* **Host**: ${orMissing(result?.opt("host"), "host")}\n` +
            `* **Source**: \`${orMissing(result?.opt("source"), "source")}\`\n` +
            `* **Raw**: \`${orMissing(result?.opt("_raw"), "_raw")}\``,
        ),
      };
    },
  },
  unfilteredEvents: ["alert"],
});
