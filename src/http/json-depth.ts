/**
 * Zulip parses JSON with orjson, which refuses nesting deeper than 1,024 levels; deeper
 * structures would also run this server's recursive code (renderers, validators, integrations)
 * out of stack. Bodies and JSON arguments deeper than this are refused before they are parsed.
 */
export const MAX_JSON_DEPTH = 1024;

/**
 * Whether the JSON text `text` nests arrays and objects deeper than `max` levels: one pass, brackets
 * inside strings ignored. Text that is not JSON may give any answer (JSON.parse then refuses it).
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
