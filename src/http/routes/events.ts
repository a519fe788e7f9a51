import Router from "@koa/router";
import type { QueueRequest } from "../../domain/events/event-queue-service.js";
import { parseEventNarrow } from "../../domain/events/narrow.js";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import type { StateServices } from "../presenters/types.js";
import {
  bool,
  checkString,
  int,
  json,
  jsonDict,
  jsonList,
  nonNegativeInt,
  optional,
  parseArgs,
  str,
} from "../params.js";
import { initialState } from "../presenters/register.js";
import type { AppContext, AppState } from "../state.js";
import { success } from "../state.js";

/** Capability flags the queue honours, from a `client_capabilities` dict. */
function capabilitiesOf(caps: Record<string, unknown>): QueueRequest["capabilities"] {
  return {
    bulkMessageDeletion: caps["bulk_message_deletion"] === true,
    userSettingsObject: caps["user_settings_object"] === true,
    streamTypingNotifications: caps["stream_typing_notifications"] === true,
    emptyTopicName: caps["empty_topic_name"] === true,
  };
}

/**
 * Aborts when the client goes away before its response is written (a long-poll's disconnect), and
 * lifts the socket's idle timeout so a blocked GET /events is never cut by the server.
 */
function disconnectSignal(ctx: AppContext): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  ctx.req.socket.setTimeout(0);
  const onClose = (): void => {
    if (!ctx.res.writableFinished) controller.abort();
  };
  ctx.res.once("close", onClose);
  return { signal: controller.signal, release: () => ctx.res.off("close", onClose) };
}

/** POST /register, GET /events (long poll) and DELETE /events. */
export function eventsRouter(
  services: Pick<Services, "config" | "eventQueues"> & StateServices,
): Router<AppState> {
  const { eventQueues, config } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/register", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      apply_markdown: optional(bool, false),
      client_gravatar: optional(bool, true),
      include_subscribers: optional(bool, false),
      slim_presence: optional(bool, false),
      event_types: optional(jsonList(checkString)),
      fetch_event_types: optional(jsonList(checkString)),
      narrow: optional(json, []),
      all_public_streams: optional(bool),
      client_capabilities: optional(jsonDict, {}),
      queue_lifespan_secs: optional(nonNegativeInt, 0),
    });
    const { user } = ctx.state;
    const eventTypes = args.event_types ?? null;
    const queueId = await eventQueues.allocate(user, {
      eventTypes,
      narrow: parseEventNarrow(args.narrow),
      allPublicStreams: args.all_public_streams,
      applyMarkdown: args.apply_markdown,
      clientGravatar: args.client_gravatar,
      lifespanSecs: args.queue_lifespan_secs,
      capabilities: capabilitiesOf(args.client_capabilities),
    });
    const state = await initialState({
      services,
      user,
      clientGravatar: args.client_gravatar,
      applyMarkdown: args.apply_markdown,
      includeSubscribers: args.include_subscribers,
      slimPresence: args.slim_presence,
      capabilities: args.client_capabilities,
      fetchEventTypes: args.fetch_event_types ?? eventTypes,
    });
    ctx.body = success({
      queue_id: queueId,
      last_event_id: -1,
      zulip_version: config.zulipVersion,
      zulip_feature_level: config.zulipFeatureLevel,
      zulip_merge_base: config.zulipVersion,
      ...state,
    });
  });

  router.get("/events", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      queue_id: optional(str),
      last_event_id: optional(int),
      dont_block: optional(bool, false),
      // Register-style arguments, used only when no queue_id is given (with dont_block).
      apply_markdown: optional(bool, false),
      client_gravatar: optional(bool, false),
      all_public_streams: optional(bool),
      event_types: optional(jsonList(checkString)),
      narrow: optional(json, []),
      lifespan_secs: optional(nonNegativeInt, 0),
      bulk_message_deletion: optional(bool, false),
      user_settings_object: optional(bool, false),
      stream_typing_notifications: optional(bool, false),
    });
    const { user } = ctx.state;
    let queueId = args.queue_id;
    const created = queueId === undefined;
    if (queueId === undefined) {
      if (!args.dont_block) throw new JsonableError("Missing 'queue_id' argument");
      queueId = await eventQueues.allocate(user, {
        eventTypes: args.event_types ?? null,
        narrow: parseEventNarrow(args.narrow),
        allPublicStreams: args.all_public_streams,
        applyMarkdown: args.apply_markdown,
        clientGravatar: args.client_gravatar,
        lifespanSecs: args.lifespan_secs,
        capabilities: {
          bulkMessageDeletion: args.bulk_message_deletion,
          userSettingsObject: args.user_settings_object,
          streamTypingNotifications: args.stream_typing_notifications,
        },
      });
    } else if (args.last_event_id === undefined) {
      throw new JsonableError("Missing 'last_event_id' argument");
    }
    const { signal, release } = disconnectSignal(ctx);
    try {
      const events = await eventQueues.getEvents(user.id, {
        queueId,
        lastEventId: args.last_event_id,
        dontBlock: args.dont_block,
        signal,
      });
      ctx.body = success(created ? { events, queue_id: queueId } : { events });
    } finally {
      release();
    }
  });

  router.delete("/events", async (ctx) => {
    const args = parseArgs(ctx.state.params, { queue_id: str });
    await eventQueues.deleteQueue(ctx.state.user.id, args.queue_id);
    ctx.body = success();
  });

  return router;
}
