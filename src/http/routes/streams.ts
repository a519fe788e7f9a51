import Router from "@koa/router";
import { NotFoundError } from "../../errors.js";
import type { Services } from "../../services.js";
import { bool, optional, parseArgs, str } from "../params.js";
import { presentStream } from "../presenters/streams.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** GET /streams, GET /streams/{id}, GET /get_stream_id, GET /streams/{id}/members. */
export function streamsRouter(services: Services): Router<AppState> {
  const { streams } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.get("/streams", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      include_public: optional(bool, true),
      include_web_public: optional(bool, false),
      include_subscribed: optional(bool, true),
      include_all_active: optional(bool, false),
      include_default: optional(bool, false),
      include_owner_subscribed: optional(bool, false),
    });
    const list = await streams.listStreams(ctx.state.user, {
      includePublic: args.include_public,
      includeWebPublic: args.include_web_public,
      includeSubscribed: args.include_subscribed,
      includeAllActive: args.include_all_active,
      includeOwnerSubscribed: args.include_owner_subscribed,
    });
    ctx.body = success({
      streams: list.map((s) => presentStream(s, { includeDefault: args.include_default })),
    });
  });

  router.get("/get_stream_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream: str });
    const stream = await streams.accessibleByName(ctx.state.user, args.stream);
    ctx.body = success({ stream_id: stream.id });
  });

  router.get("/streams/:stream_id", async (ctx) => {
    const raw = ctx.params["stream_id"] ?? "";
    if (!/^[0-9]+$/.test(raw)) throw new NotFoundError();
    const stream = await streams.streamFor(ctx.state.user, Number(raw));
    ctx.body = success({ stream: presentStream(stream, { includeDefault: false }) });
  });

  router.get("/streams/:stream_id/members", async (ctx) => {
    const raw = ctx.params["stream_id"] ?? "";
    if (!/^[0-9]+$/.test(raw)) throw new NotFoundError();
    ctx.body = success({ subscribers: await streams.members(ctx.state.user, Number(raw)) });
  });

  return router;
}
