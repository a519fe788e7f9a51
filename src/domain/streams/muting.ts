import { JsonableError } from "../../errors.js";
import { mutedTopicsEvent } from "../../wire/events.js";
import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";

export interface MutedTopicChange {
  streamName: string | undefined;
  streamId: number | undefined;
  topic: string;
  op: "add" | "remove";
}

/**
 * PATCH /users/me/subscriptions/muted_topics. Exactly one of `streamName`/`streamId`; muting
 * needs access to the stream; unmuting a topic that is not muted (or of a stream that does not
 * exist) is "Topic is not muted". Publishes the full `muted_topics` list to the user.
 */
export async function updateMutedTopic(deps: StreamDeps, user: User, args: MutedTopicChange): Promise<void> {
  const repo = deps.store.read.streams;
  if (args.streamName === undefined && args.streamId === undefined) {
    throw new JsonableError("Please supply 'stream'.");
  }
  if (args.streamName !== undefined && args.streamId !== undefined) {
    throw new JsonableError("Please choose one: 'stream' or 'stream_id'.");
  }
  if (args.op === "add") {
    const stream =
      args.streamName !== undefined
        ? await deps.access.accessibleByName(user, args.streamName)
        : await deps.access.accessibleById(user, args.streamId ?? 0);
    if (await repo.isTopicMuted(user.id, stream.id, args.topic)) {
      throw new JsonableError("Topic already muted");
    }
    await repo.muteTopic(user.id, stream.id, args.topic, nowSeconds(deps));
  } else {
    const stream =
      args.streamName !== undefined
        ? await repo.byName(args.streamName.trim())
        : await repo.byId(args.streamId ?? 0);
    if (stream === undefined || !(await repo.unmuteTopic(user.id, stream.id, args.topic))) {
      throw new JsonableError("Topic is not muted");
    }
  }
  deps.events.send(mutedTopicsEvent(await repo.mutedTopics(user.id)), [user.id]);
}

/** Zulip's UserTopic visibility policies. */
export const VISIBILITY_POLICIES = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/**
 * POST /user_topics: a topic's visibility for the user (0 inherit, 1 muted, 2 unmuted, 3
 * followed). Muted topics stay what `muted_topics` reports. Publishes `user_topic` and, when the
 * muted set changed, the legacy `muted_topics` list.
 */
export async function updateUserTopic(
  deps: StreamDeps,
  user: User,
  args: { streamId: number; topic: string; policy: number },
): Promise<void> {
  if (![0, 1, 2, 3].includes(args.policy)) throw new JsonableError("Invalid visibility_policy");
  const topic = args.topic.trim();
  if (topic === "") throw new JsonableError("Topic can't be empty");
  const stream = await deps.access.accessibleById(user, args.streamId);
  const now = nowSeconds(deps);
  const mutedChanged = await deps.store.transaction(async ({ streams: repo }) => {
    const wasMuted = await repo.isTopicMuted(user.id, stream.id, topic);
    if (args.policy === VISIBILITY_POLICIES.muted) {
      if (!wasMuted) await repo.muteTopic(user.id, stream.id, topic, now);
      await repo.setTopicPolicy(user.id, stream.id, topic, undefined, now);
      return !wasMuted;
    }
    if (wasMuted) await repo.unmuteTopic(user.id, stream.id, topic);
    await repo.setTopicPolicy(user.id, stream.id, topic, args.policy === 0 ? undefined : args.policy, now);
    return wasMuted;
  });
  deps.events.send(
    {
      type: "user_topic",
      stream_id: stream.id,
      topic_name: topic,
      last_updated: now,
      visibility_policy: args.policy,
    },
    [user.id],
  );
  if (mutedChanged) {
    deps.events.send(mutedTopicsEvent(await deps.store.read.streams.mutedTopics(user.id)), [user.id]);
  }
}
