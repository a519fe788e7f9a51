import Router from "@koa/router";
import type { Services } from "../../services.js";
import { checkInt, int, jsonList, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Message flags and the mark-as-read endpoints. */
export function flagsRouter(services: Services): Router<AppState> {
  const { messages } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/messages/flags", async (ctx) => {
    const args = parseArgs(ctx.state.params, { messages: jsonList(checkInt), op: str, flag: str });
    await messages.updateFlags(ctx.state.user, args.messages, args.op, args.flag);
    ctx.body = success({ messages: args.messages });
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
