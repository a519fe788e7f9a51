import { Wild, defineIntegration, payloadField, reply } from "../kit/index.js";
import type { HandlerResult } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { joinPieces, renderAttachment, renderBlock, replaceFormatting, replaceLinks } from "./render.js";

/**
 * Slack-compatible incoming webhooks: `text`, Block Kit `blocks` and legacy `attachments`, with
 * Slack's mrkdwn converted to Markdown. The topic is the URL's `topic`, else the payload's
 * `channel` (without a leading `#`/`@`), else none.
 */
export default defineIntegration({
  name: "slack_incoming",
  displayName: "SlackIncoming",
  categories: ["communication", "meta-integration"],
  description: "Accepts Slack-style incoming webhooks, so tools that only speak Slack can post here.",
  // JSON requests are read from the body; anything else from the form or query field `payload`.
  body: payloadField("payload", { unlessJsonContentType: true }),
  unfilteredEvents: ["default"],
  // Slack's senders read Slack's error shape, as Zulip answers them (the status stays the error's).
  errorBody: ({ msg }) => ({ ok: false, error: msg }),
  events: {
    // Slack's senders expect `ok: true` in the answer.
    default: (p) => reply({ ok: true }, render(p)),
  },
});

/** The message of a Slack-style payload (null: nothing Zulip can show). */
function render(p: Wild): HandlerResult {
  const pieces: string[] = [];
  const blocks = p.opt("blocks");
  if (Wild.truthy(blocks)) pieces.push(...blocks.items().map(renderBlock));
  const attachments = p.opt("attachments");
  if (Wild.truthy(attachments)) pieces.push(...attachments.items().map(renderAttachment));
  let body = joinPieces(pieces);
  const text = p.opt("text");
  if (body === "" && Wild.truthy(text)) {
    // Slack shows `text` only as the notification fallback when there are blocks or attachments.
    const emoji = p.opt("icon_emoji");
    body = (Wild.truthy(emoji) ? `${emoji.str()} ` : "") + text.str();
  }
  body = normalizeBody(replaceFormatting(replaceLinks(body)));
  if (body === "") return null; // nothing Zulip can show: success, no message
  const channel = p.opt("channel")?.str();
  const topic = channel !== undefined ? channel.replace(/^[@#]/, "") : "";
  return { topic: truncateTopic(topic), body };
}
