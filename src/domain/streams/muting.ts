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
