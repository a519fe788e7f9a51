import { WILDCARD_MENTIONS, mentionCandidates, renderMarkdown } from "../markdown/render.js";
import { emojiNameCandidates } from "../markdown/emoji-custom.js";
import type { LinkableStream, MentionableUser, Rendered } from "../markdown/render.js";
import type { User } from "../users/types.js";
import type { MessageDeps } from "./ports.js";
import { linkedPathIds } from "../uploads/files.js";

/** Renders content for `sender`: mentions of active users, links to streams the sender can see. */
export async function renderFor(deps: MessageDeps, sender: User, content: string): Promise<Rendered> {
  const candidates = mentionCandidates(content);
  let users: MentionableUser[] = [];
  const personal = candidates.names.filter((n) => !WILDCARD_MENTIONS.includes(n));
  if (personal.length > 0 || candidates.ids.length > 0) {
    users = await deps.store.read.messages.activeUsersNamed(personal, candidates.ids);
  }
  const streams: LinkableStream[] = [];
  for (const name of candidates.streamNames) {
    const stream = await deps.streams.byName(name);
    if (stream !== undefined && (await deps.streams.canAccess(sender, stream))) {
      streams.push({ id: stream.id, name: stream.name });
    }
  }
  const groups =
    candidates.groupNames.length > 0 && deps.groups !== undefined
      ? await deps.groups.mentionable(candidates.groupNames)
      : [];
  const linkifiers = deps.linkifiers === undefined ? [] : await deps.linkifiers.forRendering();
  const emojiSource = deps.customEmoji;
  const emojiNames = emojiSource === undefined ? [] : emojiNameCandidates(content);
  const customEmoji = emojiSource === undefined ? [] : await emojiSource.activeNamed(emojiNames);
  const pathIds =
    deps.uploadedImages !== undefined && content.includes("/user_uploads/") ? linkedPathIds(content) : [];
  const uploadedImages = pathIds.length > 0 ? await deps.uploadedImages!(pathIds) : undefined;
  return renderMarkdown(content, {
    users,
    streams,
    groups,
    linkifiers,
    customEmoji,
    ...(deps.proxyImage === undefined ? {} : { proxyImage: deps.proxyImage }),
    ...(uploadedImages === undefined || uploadedImages.size === 0 ? {} : { uploadedImages }),
  });
}
