import { JsonableError, ReactionAlreadyExistsError, ReactionDoesNotExistError } from "../../errors.js";
import { reactionEvent } from "../../wire/events.js";
import type { User } from "../users/types.js";
import { accessMessage } from "./access.js";
import { HISTORICAL_FLAGS } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import { checkEmojiWith, emojiByNameWith } from "./reaction-emoji.js";
import type { Reaction, ReactionRequest } from "./types.js";

/**
 * POST /messages/{id}/reactions (Zulip's check_add_reaction). The emoji's code and type default
 * to what its name stands for. Reacting with an emoji someone already used on the message is a
 * vote for it (that reaction's name is kept). A reader of public history without a row for the
 * message gets a read+historical one, as in Zulip, so that later events about it reach them.
 */
export async function addReaction(
  deps: MessageDeps,
  user: User,
  messageId: number,
  req: ReactionRequest,
): Promise<void> {
  await accessMessage(deps, user, messageId);
  let name = req.emojiName ?? "";
  let { emojiCode: code, reactionType: type } = req;
  if (code === undefined || type === undefined) {
    const byName = await emojiByNameWith(deps.customEmoji, name);
    code ??= byName.emojiCode;
    type ??= byName.reactionType;
  }
  const reactions = deps.store.read.reactions;
  if ((await reactions.find(messageId, user.id, code, type)) !== undefined) {
    throw new ReactionAlreadyExistsError();
  }
  const existing = await reactions.firstWithEmoji(messageId, code, type);
  const reactionType = existing?.reactionType ?? (await checkEmojiWith(deps.customEmoji, name, code, type));
  if (existing !== undefined) name = existing.emojiName;
  const reaction: Reaction = { messageId, userId: user.id, emojiName: name, emojiCode: code, reactionType };
  const added = await deps.store.transaction(async (repos) => {
    await repos.flags.lockUser(user.id);
    await repos.flags.insertUserMessage(user.id, messageId, HISTORICAL_FLAGS);
    return repos.reactions.add(reaction);
  });
  if (!added) throw new ReactionAlreadyExistsError();
  await publishReaction(deps, user, "add", reaction);
}

/**
 * DELETE /messages/{id}/reactions (Zulip's remove_reaction): by `emoji_code`, else by what
 * `emoji_name` stands for; `reaction_type` defaults to the name's type, else "unicode_emoji".
 */
export async function removeReaction(
  deps: MessageDeps,
  user: User,
  messageId: number,
  req: ReactionRequest,
): Promise<void> {
  await accessMessage(deps, user, messageId);
  let { emojiCode: code, reactionType: type } = req;
  if (code === undefined) {
    if (req.emojiName === undefined) {
      throw new JsonableError(
        "At least one of the following arguments must be present: emoji_name, emoji_code",
      );
    }
    const byName = await emojiByNameWith(deps.customEmoji, req.emojiName);
    code = byName.emojiCode;
    type ??= byName.reactionType;
  }
  const emojiCode = code;
  const reactionType = type ?? "unicode_emoji";
  const removed = await deps.store.transaction(({ reactions }) =>
    reactions.remove(messageId, user.id, emojiCode, reactionType),
  );
  if (removed === undefined) throw new ReactionDoesNotExistError();
  await publishReaction(deps, user, "remove", removed);
}

/** Zulip's notify_reaction_update: to every user with a row for the message. */
async function publishReaction(
  deps: MessageDeps,
  user: User,
  op: "add" | "remove",
  r: Reaction,
): Promise<void> {
  const rows = await deps.store.read.flags.rowsOfMessage(r.messageId);
  deps.events.send(
    reactionEvent(user, op, r),
    rows.map((row) => row.userId),
  );
}
