import DOMPurify from "dompurify";

// Links in messages open in a new tab without giving the other page a handle on ours.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href") !== null) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
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
