import { JsonableError, StreamIdDoesNotExistError } from "../../errors.js";
import { checkCanPost } from "../messages/access.js";
import type { PostAccessLookups } from "../messages/access.js";
import { normalizeContent, normalizeTopic } from "../messages/content.js";
import type { Stream } from "../streams/types.js";
import type { User } from "../users/types.js";

/** What checking a scheduled message's recipient needs of the users and streams areas. */
export interface TargetLookups {
  users: { byId(id: number): Promise<User | undefined> };
  streams: {
    byId(id: number): Promise<Stream | undefined>;
    isSubscribed(userId: number, streamId: number): Promise<boolean>;
  };
  /** Who holds a stream's `can_send_message_group` (as for POST /messages). */
  permissions: NonNullable<PostAccessLookups["permissions"]>;
}

/** A scheduled message's recipient and text as a client gives them (type already normalized). */
export interface TargetInput {
  type: "stream" | "private";
  to: number | readonly number[];
  topic: string | undefined;
  content: string;
}

/** Where a scheduled message goes, checked now as sending it would be (Zulip's check_message). */
export interface Target {
  type: "stream" | "private";
  streamId: number | null;
  /** `[stream id]`, or the other participants (yourself alone for a note to self). */
  to: number[];
  topic: string;
  content: string;
}

/** The checks and texts of POST /messages (src/domain/messages/send.ts), for a later send. */
export async function checkTarget(deps: TargetLookups, sender: User, input: TargetInput): Promise<Target> {
  if (input.type === "stream") {
    if (input.topic === undefined) throw new JsonableError("Missing topic");
    const topic = normalizeTopic(input.topic);
    const content = normalizeContent(input.content);
    let id = input.to;
    if (typeof id !== "number") {
      if (id.length !== 1) throw new JsonableError("Expected exactly one stream");
      id = id[0]!;
    }
    const stream = await deps.streams.byId(id);
    if (stream === undefined || stream.isArchived) throw new StreamIdDoesNotExistError(id);
    await checkCanPost(deps, sender, stream);
    return { type: "stream", streamId: stream.id, to: [stream.id], topic, content };
  }
  const content = normalizeContent(input.content);
  const ids = typeof input.to === "number" ? [input.to] : [...input.to];
  for (const id of ids) {
    const user = await deps.users.byId(id);
    if (user === undefined || user.realmId !== sender.realmId)
      throw new JsonableError(`Invalid user ID ${id}`);
    if (!user.isActive) throw new JsonableError(`'${user.email}' is no longer using Zulip.`);
  }
  if (ids.length === 0) throw new JsonableError("Message must have recipients");
  const others = [...new Set(ids)].filter((id) => id !== sender.id).sort((a, b) => a - b);
  return {
    type: "private",
    streamId: null,
    to: others.length === 0 ? [sender.id] : others,
    topic: "",
    content,
  };
}
