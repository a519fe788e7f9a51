import { defineIntegration } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * Slack-style mrkdwn as AppFollow writes it → Zulip Markdown: `*bold*` → `**bold**`,
 * `_italic_` → `*italic*`, `~strike~` → `~~strike~~` (Zulip's conversion, edge cases included).
 */
export function convertMarkdown(text: string): string {
  return text
    .replace(/(?:(?<=\s)|(?<=^))\*(.+?\S)\*(?=\s|$)/g, "**$1**")
    .replace(/\b_(\s*)(.+?)(\s*)_\b/g, "$1*$2*$3")
    .replace(/(?:(?<=\s)|(?<=^))~(.+?\S)~(?=\s|$)/g, "~~$1~~");
}

/**
 * AppFollow: new app reviews (and the integration test), as AppFollow formats them for Slack. The
 * topic is the first line, the app's name.
 */
export default defineIntegration({
  name: "appfollow",
  displayName: "AppFollow",
  categories: ["customer-support"],
  description: "Posts AppFollow app reviews, in a topic per app.",
  events: {
    review: (p) => {
      const message = p.get("text").str();
      const firstLine = /^.+/.exec(message)?.[0] ?? "AppFollow";
      return { topic: truncateTopic(firstLine), body: normalizeBody(convertMarkdown(message)) };
    },
  },
  unfilteredEvents: ["review"],
});
