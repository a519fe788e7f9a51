import Router from "@koa/router";
import type { Services } from "../../services.js";
import { int, json, optional, parseArgs, str } from "../params.js";
import type { Parser } from "../params.js";
import { JsonableError } from "../../errors.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Zulip's Json[int]: a JSON integer ("message_id is not an integer" otherwise). */
const jsonInt: Parser<number> = (raw, name) => {
  const v = json(raw, name);
  if (typeof v !== "number" || !Number.isInteger(v)) throw new JsonableError(`${name} is not an integer`);
  return v;
};

/** POST/GET /reminders, DELETE /reminders/{reminder_id} (Zulip's views/reminders.py). */
export function remindersRouter(services: Pick<Services, "reminders">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/reminders" });
  const reminders = services.reminders;

  router.get("/", async (ctx) => {
    ctx.body = success({ reminders: await reminders.list(ctx.state.user) });
  });

  router.post("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      message_id: jsonInt,
      scheduled_delivery_timestamp: jsonInt,
      note: optional(str),
    });
    const id = await reminders.create(
      ctx.state.user,
      args.message_id,
      args.scheduled_delivery_timestamp,
      args.note,
    );
    ctx.body = success({ reminder_id: id });
  });

  router.delete("/:reminder_id", async (ctx) => {
    await reminders.delete(ctx.state.user, int(ctx.params["reminder_id"] ?? "", "reminder_id"));
    ctx.body = success();
  });

  return router;
}
