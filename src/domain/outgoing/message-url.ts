/** Zulip's near_message_url: the permalink an owner notice points to. */

/** Zulip's hash_util_encode: quote(safe="") then "." → "%2E" and "%" → ".". */
export function hashUtilEncode(text: string): string {
  const quoted = encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return quoted.replaceAll(".", "%2E").replaceAll("%", ".");
}

interface UrlMessage {
  id: number;
  type: string;
  stream_id?: unknown;
  display_recipient: string | readonly { id: number }[];
  subject: string;
}

export function nearMessageUrl(realmUrl: string, message: UrlMessage): string {
  const base = realmUrl.replace(/\/+$/, "");
  if (message.type === "stream") {
    const name = typeof message.display_recipient === "string" ? message.display_recipient : "";
    const streamName = name.replaceAll(" ", "-");
    const stream = `${String(message.stream_id)}-${hashUtilEncode(streamName)}`;
    const topic = hashUtilEncode(message.subject);
    return [base, "#narrow", "channel", stream, "topic", topic, "near", String(message.id)].join("/");
  }
  const recipients = typeof message.display_recipient === "string" ? [] : message.display_recipient;
  const slug = `${recipients.map((r) => String(r.id)).join(",")}-pm`;
  return [base, "#narrow", "dm", slug, "near", String(message.id)].join("/");
}
