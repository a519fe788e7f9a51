import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import {
  checkInt,
  checkList,
  checkUnion,
  int,
  jsonOf,
  optional,
  parseArgs,
  str,
  withAlias,
} from "../params.js";
import type { Parser } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** `type`: "stream"/"channel" or "private"/"direct" (Zulip's check_string_in: "Invalid type"). */
const messageType: Parser<"stream" | "private"> = (raw, name) => {
  if (raw === "stream" || raw === "channel") return "stream";
  if (raw === "private" || raw === "direct") return "private";
  throw new JsonableError(`Invalid ${name}`);
};

/** `to`: a stream id, or a JSON list of user ids. */
const recipients = jsonOf(checkUnion<number, number[]>(checkInt, checkList(checkInt)));

/** GET/POST /scheduled_messages, PATCH/DELETE /scheduled_messages/{scheduled_message_id}. */
export function scheduledMessagesRouter(services: Pick<Services, "scheduledMessages">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/scheduled_messages" });
  const scheduled = services.scheduledMessages;
  const messageId = (raw: string | undefined): number => int(raw ?? "", "scheduled_message_id");

  router.get("/", async (ctx) => {
    ctx.body = success({ scheduled_messages: await scheduled.list(ctx.state.user) });
  });

  router.post("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      type: messageType,
      to: recipients,
      topic: withAlias(optional(str), "subject"),
      content: str,
      scheduled_delivery_timestamp: int,
    });
    const id = await scheduled.create(ctx.state.user, {
      type: args.type,
      to: args.to,
      topic: args.topic,
      content: args.content,
      deliverAt: args.scheduled_delivery_timestamp,
    });
    ctx.body = success({ scheduled_message_id: id });
  });

  router.patch("/:scheduled_message_id", async (ctx) => {
    const id = messageId(ctx.params["scheduled_message_id"]);
    const args = parseArgs(ctx.state.params, {
      type: optional(messageType),
      to: optional(recipients),
      topic: optional(str),
      content: optional(str),
      scheduled_delivery_timestamp: optional(int),
    });
    await scheduled.edit(ctx.state.user, id, {
      type: args.type,
      to: args.to,
      topic: args.topic,
      content: args.content,
      deliverAt: args.scheduled_delivery_timestamp,
    });
    ctx.body = success();
  });

  router.delete("/:scheduled_message_id", async (ctx) => {
    await scheduled.delete(ctx.state.user, messageId(ctx.params["scheduled_message_id"]));
    ctx.body = success();
  });

  return router;
}
