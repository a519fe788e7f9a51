import { decodeHtmlEntities } from "../kit/html-entities.js";

/**
 * Text of an HTML fragment, as Python's `HTMLParser` collects it with `convert_charrefs` (what
 * Zulip's Intercom integration quotes): tags and comments dropped, character references decoded.
 */
export function stripTags(html: string): string {
  return decodeHtmlEntities(html.replace(/<!--[\s\S]*?-->/g, "").replace(/<\/?[a-zA-Z][^>]*>/g, ""));
}
