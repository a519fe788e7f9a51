import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { StreamSpec } from "../../domain/streams/subscribe.js";
import { normalizeColor } from "../../domain/streams/stream-names.js";
import { MAX_STREAM_DESCRIPTION_LENGTH } from "../../domain/streams/types.js";
import type { Services } from "../../services.js";
import {
  bool,
  checkBool,
  checkDict,
  checkInt,
  checkString,
  checkUnion,
  int,
  jsonList,
  oneOf,
  optional,
  parseArgs,
  parseJson,
  str,
} from "../params.js";
import type { Check, Parser } from "../params.js";
import { subscriptionWire as presentSubscription } from "../../wire/streams.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Zulip's check_dict(_only): required and optional keys, each with its validator, named `var["key"]`. */
function checkKeys(
  value: Record<string, unknown>,
  name: string,
  required: readonly [string, Check<unknown>][],
  optionalKeys: readonly [string, Check<unknown>][],
  onlyListed: boolean,
): void {
  for (const [key, check] of required) {
    if (!(key in value)) throw new JsonableError(`${key} key is missing from ${name}`);
    check(value[key], `${name}["${key}"]`);
  }
  for (const [key, check] of optionalKeys) {
    if (key in value) check(value[key], `${name}["${key}"]`);
  }
  if (onlyListed) {
    const known = new Set([...required, ...optionalKeys].map(([k]) => k));
    const extra = Object.keys(value).filter((k) => !known.has(k));
    if (extra.length > 0) throw new JsonableError(`Unexpected arguments: ${extra.join(", ")}`);
  }
}

const checkDescription: Check<string> = (v, name) => {
  const s = checkString(v, name);
  if ([...s].length > MAX_STREAM_DESCRIPTION_LENGTH) {
    throw new JsonableError(`${name} is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`);
  }
  return s;
};

/** `principals`: a JSON list of emails or a JSON list of user ids. */
const principalsList: Parser<(string | number)[]> = (raw, name) => {
  const v = parseJson(raw, name);
  if (
    Array.isArray(v) &&
    (v.every((p) => typeof p === "string") || v.every((p) => Number.isSafeInteger(p)))
  ) {
    return v as (string | number)[];
  }
  throw new JsonableError(`${name} is not an allowed_type`);
};

/** /users/me/subscriptions and its properties and muted topics. */
export function subscriptionsRouter(services: Pick<Services, "streams">): Router<AppState> {
  const { streams } = services;
  const router = new Router<AppState>({ prefix: "/api/v1/users/me/subscriptions" });

  router.get("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, { include_subscribers: optional(bool, false) });
    const subs = await streams.subscriptionsWithStreams(ctx.state.user, args.include_subscribers);
    ctx.body = success({
      subscriptions: subs.map((s) => presentSubscription(s.stream, s.subscription, s.subscribers)),
    });
  });

  router.post("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      subscriptions: jsonList(checkDict),
      invite_only: optional(bool, false),
      principals: optional(principalsList),
      authorization_errors_fatal: optional(bool, true),
      history_public_to_subscribers: optional(bool),
      is_announcement_only: optional(bool, false),
      announce: optional(bool, false),
    });
    const specs: StreamSpec[] = args.subscriptions.map((item, i) => {
      const name = `subscriptions[${i}]`;
      checkKeys(
        item,
        name,
        [["name", checkString]],
        [
          ["color", normalizeColor],
          ["description", checkDescription],
        ],
        true,
      );
      return {
        name: item["name"] as string,
        description: item["description"] as string | undefined,
        color: item["color"] === undefined ? undefined : normalizeColor(item["color"], `${name}["color"]`),
      };
    });
    const outcome = await streams.subscribe(ctx.state.user, specs, {
      inviteOnly: args.invite_only,
      historyPublicToSubscribers: args.history_public_to_subscribers,
      isAnnouncementOnly: args.is_announcement_only,
      announce: args.announce,
      principals: args.principals === undefined || args.principals.length === 0 ? undefined : args.principals,
      authorizationErrorsFatal: args.authorization_errors_fatal,
    });
    ctx.body = success({
      subscribed: outcome.subscribed,
      already_subscribed: outcome.alreadySubscribed,
      ...(outcome.unauthorized.length > 0 ? { unauthorized: outcome.unauthorized } : {}),
    });
  });

  router.delete("/", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      subscriptions: jsonList(checkString),
      principals: optional(principalsList),
    });
    const principals =
      args.principals === undefined || args.principals.length === 0 ? undefined : args.principals;
    const outcome = await streams.unsubscribe(ctx.state.user, args.subscriptions, principals);
    ctx.body = success({ removed: outcome.removed, not_removed: outcome.notRemoved });
  });

  router.post("/properties", async (ctx) => {
    const args = parseArgs(ctx.state.params, { subscription_data: jsonList(checkDict) });
    const changes = args.subscription_data.map((item, i) => {
      const value = checkUnion(checkString, checkBool);
      const checkValue: Check<unknown> = (v, name) => {
        try {
          return value(v, name);
        } catch {
          throw new JsonableError(`${name} is not an allowed_type`);
        }
      };
      checkKeys(
        item,
        `subscription_data[${i}]`,
        [
          ["stream_id", checkInt],
          ["property", checkString],
          ["value", checkValue],
        ],
        [],
        false,
      );
      return {
        streamId: item["stream_id"] as number,
        property: item["property"] as string,
        value: item["value"] as string | boolean,
      };
    });
    await streams.updateSubscriptionProperties(ctx.state.user, changes);
    ctx.body = success({
      subscription_data: changes.map((c) => ({
        stream_id: c.streamId,
        property: c.property,
        value: c.value,
      })),
    });
  });

  router.patch("/muted_topics", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      stream_id: optional(int),
      stream: optional(str),
      topic: str,
      op: oneOf(["add", "remove"] as const),
    });
    await streams.updateMutedTopic(ctx.state.user, {
      streamName: args.stream,
      streamId: args.stream_id,
      topic: args.topic,
      op: args.op,
    });
    ctx.body = success();
  });

  return router;
}
