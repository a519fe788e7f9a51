import Router from "@koa/router";
import { NotFoundError } from "../../errors.js";
import type { Services } from "../../services.js";
import { JsonableError } from "../../errors.js";
import { bool, int, optional, parseArgs, str } from "../params.js";
import type { AppContext } from "../state.js";
import { streamListWire as presentStream } from "../../wire/streams.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";
import { STREAM_PERMISSION_NAMES } from "../../domain/user-groups/group-settings.js";
import { groupSettingUpdates } from "./group-setting-args.js";
import { shownTopic } from "./empty-topic.js";

/** A numeric path parameter; anything else is a 404 as for an unknown route. */
function pathId(ctx: AppContext, name: string): number {
  const raw = (ctx.params as Record<string, string | undefined>)[name] ?? "";
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

/**
 * Streams and topics: GET /streams, GET/PATCH/DELETE /streams/{id}, GET /get_stream_id,
 * GET /streams/{id}/members, POST /streams/{id}/delete_topic, GET /users/me/{stream_id}/topics,
 * POST/DELETE /default_streams, POST /user_topics, GET /users/{user_id}/subscriptions/{stream_id}.
 */
export function streamsRouter(services: Pick<Services, "messages" | "streams">): Router<AppState> {
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
      exclude_archived: optional(bool, true),
      include_all: optional(bool),
    });
    const list = await streams.listStreams(ctx.state.user, {
      includePublic: args.include_public,
      includeWebPublic: args.include_web_public,
      includeSubscribed: args.include_subscribed,
      includeAllActive: args.include_all ?? args.include_all_active,
      includeOwnerSubscribed: args.include_owner_subscribed,
      excludeArchived: args.exclude_archived,
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

  // A stream's email address is for Zulip's incoming email gateway, which this server doesn't run:
  // a clear error (after the usual access check) rather than an address nothing would receive at.
  router.get("/streams/:stream_id/email_address", async (ctx) => {
    await streams.streamFor(ctx.state.user, pathId(ctx, "stream_id"));
    throw new JsonableError("This server has no incoming email gateway, so streams have no email address");
  });

  router.patch("/streams/:stream_id", async (ctx) => {
    const streamId = pathId(ctx, "stream_id");
    const args = parseArgs(ctx.state.params, {
      new_name: optional(str),
      description: optional(str),
      is_private: optional(bool),
      history_public_to_subscribers: optional(bool),
      stream_post_policy: optional(int),
      is_announcement_only: optional(bool),
      is_archived: optional(bool),
      topics_policy: optional(str),
    });
    await streams.updateStream(ctx.state.user, streamId, {
      newName: args.new_name,
      description: args.description,
      isPrivate: args.is_private,
      historyPublicToSubscribers: args.history_public_to_subscribers,
      streamPostPolicy: args.stream_post_policy,
      isAnnouncementOnly: args.is_announcement_only,
      groupSettings: groupSettingUpdates(ctx.state.params, STREAM_PERMISSION_NAMES),
      isArchived: args.is_archived,
      topicsPolicy: args.topics_policy,
    });
    ctx.body = success();
  });

  router.delete("/streams/:stream_id", async (ctx) => {
    await streams.archiveStream(ctx.state.user, pathId(ctx, "stream_id"));
    ctx.body = success();
  });

  router.post("/streams/:stream_id/delete_topic", async (ctx) => {
    const streamId = pathId(ctx, "stream_id");
    const args = parseArgs(ctx.state.params, { topic_name: str });
    await services.messages.deleteTopic(ctx.state.user, streamId, args.topic_name);
    ctx.body = success();
  });

  router.get("/users/me/:stream_id/topics", async (ctx) => {
    const args = parseArgs(ctx.state.params, { allow_empty_topic_name: optional(bool, false) });
    const topics = await services.messages.topics(ctx.state.user, pathId(ctx, "stream_id"));
    ctx.body = success({
      topics: topics.map((t) => ({
        max_id: t.maxId,
        name: args.allow_empty_topic_name ? t.name : shownTopic(t.name),
      })),
    });
  });

  router.post("/default_streams", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream_id: int });
    await streams.setDefaultStream(ctx.state.user, args.stream_id, true);
    ctx.body = success();
  });

  router.delete("/default_streams", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream_id: int });
    await streams.setDefaultStream(ctx.state.user, args.stream_id, false);
    ctx.body = success();
  });

  router.post("/user_topics", async (ctx) => {
    const args = parseArgs(ctx.state.params, { stream_id: int, topic: str, visibility_policy: int });
    await streams.updateUserTopic(ctx.state.user, {
      streamId: args.stream_id,
      topic: args.topic,
      policy: args.visibility_policy,
    });
    ctx.body = success();
  });

  router.get("/users/:user_id/subscriptions/:stream_id", async (ctx) => {
    const raw = (ctx.params as Record<string, string | undefined>)["user_id"] ?? "";
    if (!/^[0-9]+$/.test(raw)) throw new JsonableError("No such user");
    const subscribed = await streams.subscriptionStatus(
      ctx.state.user,
      Number(raw),
      pathId(ctx, "stream_id"),
    );
    ctx.body = success({ is_subscribed: subscribed });
  });

  return router;
}
