import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import { isEmptyTopicName } from "../../domain/messages/content.js";
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPES } from "../../domain/messages/message-reports.js";
import type { ReportType } from "../../domain/messages/message-reports.js";
import type { PropagateMode, SendInput } from "../../domain/messages/types.js";
import type { Services } from "../../services.js";
import { bool, checkInt, int, jsonList, optional, parseArgs, str, tryJson, withAlias } from "../params.js";
import type { Parser } from "../params.js";
import { anchorParser, messageId, narrowParser, nonNegative } from "./message-args.js";
import { fetchResultWire as presentFetch } from "../../wire/messages.js";
import { showEmptyTopics } from "./empty-topic.js";
import type { AppContext, AppState } from "../state.js";
import { success } from "../state.js";

/** Zulip's check_string_in_validator(Realm.REPORT_MESSAGE_REASONS): "Invalid report_type". */
const reportType: Parser<ReportType> = (raw, name) => {
  if (!Object.hasOwn(REPORT_TYPES, raw)) throw new JsonableError(`Invalid ${name}`);
  return raw as ReportType;
};

const messageType: Parser<SendInput["type"]> = (raw) => {
  if (raw === "stream" || raw === "private" || raw === "direct" || raw === "channel") return raw;
  throw new JsonableError("Invalid message type");
};

/** Zulip's extract_stream_indicator: a raw name, a JSON name or id, or a one-element JSON list. */
function streamIndicator(raw: string): string | number {
  const parsed = tryJson(raw);
  if (!parsed.ok) return raw;
  let data = parsed.value;
  if (Array.isArray(data)) {
    if (data.length !== 1) throw new JsonableError("Expected exactly one stream");
    data = data[0];
  }
  if (typeof data === "string") return data;
  if (typeof data === "number" && Number.isSafeInteger(data)) return data;
  throw new JsonableError("Invalid data type for stream");
}

/** Zulip's extract_private_recipients: JSON list of emails or ids, or comma-separated emails. */
function privateRecipients(raw: string): (string | number)[] {
  const parsed = tryJson(raw);
  let data: unknown = parsed.ok ? parsed.value : raw;
  if (typeof data === "string") data = data.split(",");
  if (typeof data === "number") data = [data];
  if (!Array.isArray(data)) throw new JsonableError("Invalid data type for recipients");
  const list = data as unknown[];
  if (list.length === 0) return [];
  const allStrings = list.every((x) => typeof x === "string");
  const allInts = list.every((x) => typeof x === "number" && Number.isSafeInteger(x));
  if (!allStrings && !allInts) throw new JsonableError("Invalid data type for recipients");
  return list as (string | number)[];
}

/** The client name: the `client` argument, else the User-Agent's name (Zulip's get_client_name). */
function clientName(ctx: AppContext): string {
  const explicit = ctx.state.params["client"];
  if (explicit !== undefined) return explicit;
  const ua = ctx.get("User-Agent");
  if (ua === "") return "Unspecified";
  const m = /^([^/ ]*[^0-9/(]*)/.exec(ua);
  return (m?.[1] ?? ua).trim() || "Unspecified";
}

const propagateMode: Parser<PropagateMode> = (raw, name) => {
  if (raw === "change_one" || raw === "change_later" || raw === "change_all") return raw;
  throw new JsonableError(`Invalid ${name}`);
};

/** Sending, fetching, editing, history and deletion of messages, and emoji reactions. */
export function messagesRouter(
  services: Pick<Services, "messageReports" | "messages" | "topicsPolicy">,
): Router<AppState> {
  const { messages } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/messages", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      type: messageType,
      to: str,
      topic: withAlias(optional(str), "subject"),
      content: str,
      queue_id: optional(str),
      local_id: optional(str),
      widget_content: optional(str),
    });
    const isStream = args.type === "stream" || args.type === "channel";
    // An empty topic ("", "(no topic)", "general chat") is stored as "" when the realm's
    // topics_policy allows it (Zulip 11).
    const allowEmptyTopic =
      isStream && args.topic !== undefined && isEmptyTopicName(args.topic)
        ? await services.topicsPolicy.allowsEmptyTopic()
        : false;
    const id = await messages.send(ctx.state.user, {
      type: args.type,
      to: isStream ? streamIndicator(args.to) : privateRecipients(args.to),
      topic: args.topic,
      content: args.content,
      client: clientName(ctx),
      allowEmptyTopic,
      queueId: args.queue_id,
      localId: args.local_id,
      widgetContent: args.widget_content,
    });
    ctx.body = success({ id });
  });

  router.get("/messages", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      anchor: optional(anchorParser),
      use_first_unread_anchor: optional(bool, false),
      num_before: nonNegative,
      num_after: nonNegative,
      include_anchor: optional(bool, true),
      narrow: optional(narrowParser, []),
      apply_markdown: optional(bool, true),
      client_gravatar: optional(bool, false),
      allow_empty_topic_name: optional(bool, false),
    });
    let anchor = args.anchor;
    if (args.use_first_unread_anchor) anchor = "first_unread";
    if (anchor === undefined) throw new JsonableError("Missing 'anchor' argument.");
    const result = await messages.fetch(ctx.state.user, {
      anchor,
      numBefore: args.num_before,
      numAfter: args.num_after,
      includeAnchor: args.include_anchor,
      narrow: args.narrow,
      present: { applyMarkdown: args.apply_markdown, clientGravatar: args.client_gravatar },
    });
    ctx.body = success(
      presentFetch(
        args.allow_empty_topic_name ? result : { ...result, messages: showEmptyTopics(result.messages) },
      ),
    );
  });

  router.get("/messages/matches_narrow", async (ctx) => {
    const args = parseArgs(ctx.state.params, { msg_ids: jsonList(checkInt), narrow: narrowParser });
    const matches = await messages.matchesNarrow(ctx.state.user, args.msg_ids, args.narrow);
    ctx.body = success({ messages: matches });
  });

  router.post("/messages/render", async (ctx) => {
    const args = parseArgs(ctx.state.params, { content: str });
    ctx.body = success({ rendered: await messages.render(ctx.state.user, args.content) });
  });

  router.get("/messages/:id", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      apply_markdown: optional(bool, true),
      allow_empty_topic_name: optional(bool, false),
    });
    const { rawContent, message } = await messages.getWithRawContent(ctx.state.user, messageId(ctx), {
      applyMarkdown: args.apply_markdown,
      clientGravatar: false,
    });
    const shown = args.allow_empty_topic_name ? message : showEmptyTopics([message])[0];
    ctx.body = success({ raw_content: rawContent, message: shown });
  });

  router.patch("/messages/:id", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      content: optional(str),
      topic: withAlias(optional(str), "subject"),
      propagate_mode: optional(propagateMode, "change_one"),
      stream_id: optional(int),
      send_notification_to_old_thread: optional(bool),
      send_notification_to_new_thread: optional(bool),
    });
    await messages.edit(ctx.state.user, messageId(ctx), {
      content: args.content,
      topic: args.topic,
      propagateMode: args.propagate_mode,
      streamId: args.stream_id,
      sendNotificationToOldThread: args.send_notification_to_old_thread,
      sendNotificationToNewThread: args.send_notification_to_new_thread,
    });
    ctx.body = success();
  });

  router.get("/messages/:id/history", async (ctx) => {
    const history = await messages.history(ctx.state.user, messageId(ctx));
    ctx.body = success({ message_history: history });
  });

  router.post("/submessage", async (ctx) => {
    const args = parseArgs(ctx.state.params, { message_id: int, msg_type: str, content: str });
    await messages.addSubmessage(ctx.state.user, args.message_id, args.msg_type, args.content);
    ctx.body = success();
  });

  router.get("/messages/:id/read_receipts", async (ctx) => {
    ctx.body = success({ user_ids: await messages.readReceipts(ctx.state.user, messageId(ctx)) });
  });

  // Zulip 11 (feature level 382): a report to the realm's moderation-request channel.
  router.post("/messages/:id/report", async (ctx) => {
    const id = messageId(ctx);
    const args = parseArgs(ctx.state.params, {
      report_type: reportType,
      description: optional(str, ""),
    });
    if ([...args.description].length > MAX_REPORT_DESCRIPTION_LENGTH) {
      throw new JsonableError(`description is too long (limit: ${MAX_REPORT_DESCRIPTION_LENGTH} characters)`);
    }
    await services.messageReports.report(ctx.state.user, id, args.report_type, args.description);
    ctx.body = success();
  });

  router.delete("/messages/:id", async (ctx) => {
    await messages.delete(ctx.state.user, messageId(ctx));
    ctx.body = success();
  });

  router.post("/messages/:id/reactions", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      emoji_name: str,
      emoji_code: optional(str),
      reaction_type: optional(str),
    });
    await messages.addReaction(ctx.state.user, messageId(ctx), {
      emojiName: args.emoji_name,
      emojiCode: args.emoji_code,
      reactionType: args.reaction_type,
    });
    ctx.body = success();
  });

  router.delete("/messages/:id/reactions", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      emoji_name: optional(str),
      emoji_code: optional(str),
      reaction_type: optional(str),
    });
    await messages.removeReaction(ctx.state.user, messageId(ctx), {
      emojiName: args.emoji_name,
      emojiCode: args.emoji_code,
      reactionType: args.reaction_type,
    });
    ctx.body = success();
  });

  return router;
}
