import DOMPurify from "dompurify";
import { emojiChar } from "./emoji.js";

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  // Links in messages open in a new tab without giving the other page a handle on ours; the
  // app's own narrow links (`/#narrow/...`) stay in the app.
  const href = node.getAttribute("href");
  if (node.tagName === "A" && href !== null && !/^\/?#/.test(href)) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
  // `:tada:` arrives as <span class="emoji emoji-1f389">:tada:</span> (Zulip draws it from a
  // sprite sheet); the app shows the character itself.
  const code = /(?:^|\s)emoji-([0-9a-f-]+)(?:\s|$)/.exec(node.getAttribute("class") ?? "")?.[1];
  if (node.tagName === "SPAN" && code !== undefined) {
    const char = emojiChar(code);
    if (char !== "") node.textContent = char;
  }
});

/**
 * Server-rendered HTML (messages, integration docs) made safe to insert: no script, no event
 * handlers, no javascript: URLs, no forms or frames. The server escapes message HTML already;
 * this is the second wall, so a message can never run script.
 */
export function sanitize(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}
