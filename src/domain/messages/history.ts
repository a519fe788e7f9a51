import type { EditHistoryEntry, StoredMessage } from "./types.js";

/** Splits HTML into tags, runs of whitespace and words; entities stay inside words. */
function tokenize(html: string): string[] {
  return html.match(/<[^>]*>|\s+|[^\s<]+/g) ?? [];
}

const isTag = (t: string) => t.startsWith("<");

function wrap(tokens: readonly string[], cls: string, keepTags: boolean): string {
  let out = "";
  let text = "";
  const flush = () => {
    if (text !== "") out += `<span class="${cls}">${text}</span>`;
    text = "";
  };
  for (const t of tokens) {
    if (isTag(t)) {
      flush();
      if (keepTags) out += t;
    } else {
      text += t;
    }
  }
  flush();
  return out;
}

/**
 * Zulip's highlight_html_differences: the new rendering, with inserted text wrapped in
 * `<span class="highlight_text_inserted">` and deleted text in `<span class="highlight_text_deleted">`.
 * Tags are never split: deleted markup is dropped, inserted markup kept, so the result stays well formed.
 */
export async function htmlDiff(oldHtml: string, newHtml: string): Promise<string> {
  const { diffArrays } = await import("diff"); // loaded by the first history with a content edit
  let out = "";
  for (const part of diffArrays(tokenize(oldHtml), tokenize(newHtml))) {
    if (part.added) out += wrap(part.value, "highlight_text_inserted", true);
    else if (part.removed) out += wrap(part.value, "highlight_text_deleted", false);
    else out += part.value.join("");
  }
  return out;
}

/**
 * GET /messages/{id}/history's `message_history` (Zulip's fill_edit_history_entries), oldest first:
 * the original message (topic, content, rendered_content, timestamp, user_id = sender), then one
 * snapshot per edit with the editor's user_id, `prev_topic` for topic edits and `prev_content`,
 * `prev_rendered_content`, `content_html_diff` for content edits.
 */
export async function buildHistory(m: StoredMessage): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let topic = m.topic;
  let content = m.content;
  let rendered = m.renderedContent;
  for (const entry of m.editHistory ?? ([] as EditHistoryEntry[])) {
    const snap: Record<string, unknown> = {
      topic,
      content,
      rendered_content: rendered,
      timestamp: entry.timestamp,
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      snap["prev_topic"] = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_content !== undefined) {
      const prevRendered = entry.prev_rendered_content ?? "";
      snap["prev_content"] = entry.prev_content;
      snap["prev_rendered_content"] = prevRendered;
      snap["content_html_diff"] = await htmlDiff(prevRendered, rendered);
      content = entry.prev_content;
      rendered = prevRendered;
    }
    out.push(snap);
  }
  out.push({ topic, content, rendered_content: rendered, timestamp: m.dateSent, user_id: m.senderId });
  return out.reverse();
}
