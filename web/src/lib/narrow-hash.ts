/**
 * Zulip's narrow URLs (`#narrow/stream/3-Denmark/topic/castle`, `#narrow/channel/…`,
 * `#narrow/is/private`) ↔ the app's narrows. Zulip writes each part with `.` in place of `%`
 * (hash_util's encodeHashComponent); a stream part is `<id>-<name>` and only the id counts.
 */
import type { Narrow } from "./chat-store.js";

export function hashEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

export function hashDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\.([0-9A-Fa-f]{2})/g, "%$1"));
  } catch {
    return s;
  }
}

/** The narrow a `#narrow/...` hash names; `undefined` when the hash is no narrow at all. */
export function parseNarrowHash(hash: string): Narrow | undefined {
  const parts = hash.replace(/^#/, "").split("/");
  // Zulip's views: `#recent` (also the older `#recent_topics`) and `#drafts`.
  if (parts[0] === "recent" || parts[0] === "recent_topics") return { view: "recent" };
  if (parts[0] === "drafts") return { view: "drafts" };
  if (parts[0] !== "narrow") return undefined;
  const out: Narrow = {};
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const operator = parts[i];
    const operand = hashDecode(parts[i + 1] ?? "");
    if (operator === "stream" || operator === "channel") {
      const id = Number(/^\d+/.exec(operand)?.[0]);
      if (Number.isSafeInteger(id)) out.streamId = id;
    } else if (operator === "topic" || operator === "subject") {
      out.topic = operand;
    } else if (operator === "is" && (operand === "private" || operand === "dm")) {
      out.private = true;
    } else if (operator === "is" && (operand === "mentioned" || operand === "starred")) {
      out.is = operand;
    } else if (operator === "search") {
      out.search = operand;
    } else if (operator === "pm-with" || operator === "dm") {
      // `8,9-group` or `9-King-Hamlet`: the ids before the dash (emails in old links: all DMs).
      const ids = /^\d+(,\d+)*(?=-|$)/.exec(operand)?.[0];
      if (ids !== undefined) out.dm = ids.split(",").map(Number);
      else out.private = true;
    }
  }
  if (out.streamId === undefined) delete out.topic;
  return out;
}

/** The hash of a narrow, as Zulip writes it (`#` for All messages). */
export function narrowHash(n: Narrow, streamName?: string): string {
  if (n.view !== undefined) return `#${n.view}`;
  if (n.dm !== undefined) return `#narrow/dm/${n.dm.join(",")}`;
  if (n.search !== undefined) return `#narrow/search/${hashEncode(n.search)}`;
  if (n.is !== undefined) return `#narrow/is/${n.is}`;
  if (n.private) return "#narrow/is/private";
  if (n.streamId === undefined) return "#";
  const s = `#narrow/stream/${n.streamId}${streamName !== undefined ? "-" + hashEncode(streamName.replace(/ /g, "-")) : ""}`;
  return n.topic === undefined ? s : `${s}/topic/${hashEncode(n.topic)}`;
}

/** The narrow a link in a message opens in the app, if it is one of this site's narrow links. */
export function narrowOfLink(href: string, origin: string): Narrow | undefined {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin || (url.pathname !== "/" && url.pathname !== "")) return undefined;
  return parseNarrowHash(url.hash);
}
