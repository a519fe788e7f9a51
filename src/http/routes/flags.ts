import Router from "@koa/router";
import type { Services } from "../../services.js";
import { bool, checkInt, int, jsonList, optional, parseArgs, str } from "../params.js";
import { anchorParser, narrowParser, nonNegative } from "./message-args.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Message flags and the mark-as-read endpoints. */
export function flagsRouter(services: Pick<Services, "messages">): Router<AppState> {
  const { messages } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/messages/flags", async (ctx) => {
    const args = parseArgs(ctx.state.params, { messages: jsonList(checkInt), op: str, flag: str });
    await messages.updateFlags(ctx.state.user, args.messages, args.op, args.flag);
    ctx.body = success({ messages: args.messages });
  });

  router.post("/messages/flags/narrow", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      anchor: anchorParser,
      include_anchor: optional(bool, true),
      num_before: nonNegative,
      num_after: nonNegative,
      narrow: narrowParser,
      op: str,
      flag: str,
    });
    const r = await messages.updateFlagsForNarrow(ctx.state.user, {
      anchor: args.anchor,
      includeAnchor: args.include_anchor,
      numBefore: args.num_before,
      numAfter: args.num_after,
      narrow: args.narrow,
      op: args.op,
      flag: args.flag,
    });
    ctx.body = success({
      processed_count: r.processedCount,
      updated_count: r.updatedCount,
      first_processed_id: r.firstProcessedId,
      last_processed_id: r.lastProcessedId,
      found_oldest: r.foundOldest,
      found_newest: r.foundNewest,
      // Every message processed is one the user received, so no channel is skipped.
      ignored_because_not_subscribed_channels: [],
    });
  });

  router.post("/mark_all_as_read", async (ctx) => {
    await messages.markAllAsRead(ctx.state.user);
    ctx.body = success();
  });

  router.post("/mark_stream_as_read", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream_id: int });
    await messages.markStreamAsRead(ctx.state.user, args.stream_id);
    ctx.body = success();
  });

  router.post("/mark_topic_as_read", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream_id: int, topic_name: str });
    await messages.markTopicAsRead(ctx.state.user, args.stream_id, args.topic_name);
    ctx.body = success();
  });

  return router;
}
