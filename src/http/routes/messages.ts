import Router from "@koa/router";
import { JsonableError, RequestVariableInvalidError } from "../../errors.js";
import type { Anchor, NarrowTerm, PropagateMode, SendInput } from "../../domain/messages/types.js";
import type { Services } from "../../services.js";
import { bool, checkInt, int, jsonList, optional, parseArgs, str, tryJson, withAlias } from "../params.js";
import type { Parser } from "../params.js";
import { presentFetch } from "../presenters/messages.js";
import type { AppContext, AppState } from "../state.js";
import { success } from "../state.js";

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

const nonNegative: Parser<number> = (raw, name) => {
  const s = raw.trim();
  if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) < 0) {
    throw new RequestVariableInvalidError(name, raw);
  }
  return Number(s);
};

const anchorParser: Parser<Anchor> = (raw) => {
  if (raw === "newest" || raw === "oldest" || raw === "first_unread") return raw;
  const s = raw.trim();
  if (!/^-?\d+$/.test(s)) throw new JsonableError("Invalid anchor");
  return Number(s);
};

/**
 * Zulip finds an operator's handler by name with "-" read as "_", so `pm_with` works as `pm-with`
 * (zulip-terminal sends it so); these are the operators whose names have a "-".
 */
const UNDERSCORE_SPELLINGS: Readonly<Record<string, string>> = {
  pm_with: "pm-with",
  group_pm_with: "group-pm-with",
  dm_including: "dm-including",
};

/** Zulip's narrow_parameter: `[operator, operand]` pairs or `{operator, operand, negated}` dicts. */
const narrowParser: Parser<NarrowTerm[]> = (raw, name) => {
  const parsed = tryJson(raw);
  const bad = () => new RequestVariableInvalidError(name, raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) throw bad();
  return (parsed.value as unknown[]).map((elem): NarrowTerm => {
    if (Array.isArray(elem)) {
      const [operator, operand] = elem as unknown[];
      if (elem.length !== 2 || typeof operator !== "string" || typeof operand !== "string") throw bad();
      return { operator: UNDERSCORE_SPELLINGS[operator] ?? operator, operand, negated: false };
    }
    if (typeof elem !== "object" || elem === null) throw bad();
    const d = elem as Record<string, unknown>;
    const rawOperator = d["operator"];
    const operator =
      typeof rawOperator === "string" ? (UNDERSCORE_SPELLINGS[rawOperator] ?? rawOperator) : rawOperator;
    const operand = d["operand"];
    const negated = d["negated"] ?? false;
    if (typeof operator !== "string") throw new JsonableError('elem["operator"] is not a string');
    const okOperand =
      typeof operand === "string" ||
      (Number.isSafeInteger(operand) &&
        ["sender", "stream", "channel", "pm-with", "dm", "id", "near"].includes(operator)) ||
      (Array.isArray(operand) &&
        ["pm-with", "dm"].includes(operator) &&
        operand.every((x) => typeof x === "number" && Number.isSafeInteger(x)));
    if (!okOperand) throw new JsonableError('elem["operand"] is not a string');
    if (typeof negated !== "boolean") throw new JsonableError('elem["negated"] is not a boolean');
    return { operator, operand: operand as NarrowTerm["operand"], negated };
  });
};

const propagateMode: Parser<PropagateMode> = (raw, name) => {
  if (raw === "change_one" || raw === "change_later" || raw === "change_all") return raw;
  throw new JsonableError(`Invalid ${name}`);
};

function messageId(ctx: AppContext): number {
  const raw = (ctx.params as Record<string, string | undefined>)["id"] ?? "";
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new JsonableError("Invalid message(s)");
  return Number(raw);
}

/** Sending, fetching, editing, history and deletion of messages, and emoji reactions. */
export function messagesRouter(services: Services): Router<AppState> {
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
    });
    const isStream = args.type === "stream" || args.type === "channel";
    const id = await messages.send(ctx.state.user, {
      type: args.type,
      to: isStream ? streamIndicator(args.to) : privateRecipients(args.to),
      topic: args.topic,
      content: args.content,
      client: clientName(ctx),
      queueId: args.queue_id,
      localId: args.local_id,
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
    ctx.body = success(presentFetch(result));
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
    const args = parseArgs(ctx.state.params, { apply_markdown: optional(bool, true) });
    const { rawContent, message } = await messages.getWithRawContent(ctx.state.user, messageId(ctx), {
      applyMarkdown: args.apply_markdown,
      clientGravatar: false,
    });
    ctx.body = success({ raw_content: rawContent, message });
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
