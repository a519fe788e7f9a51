import { JsonableError } from "../../errors.js";
import { EMOJI_CODEPOINTS } from "../markdown/emoji.js";
import type { ReactionType } from "./types.js";

/** Zulip's only `zulip_extra_emoji`: name and code are both "zulip". */
const ZULIP_EXTRA_EMOJI = ["zulip"];

const UNICODE_CODES = new Set(Object.values(EMOJI_CODEPOINTS));

/**
 * Zulip's emoji_name_to_emoji_code: the code and type an emoji name stands for. There are no custom
 * (realm) emoji here, so a name is the Zulip extra emoji or one of the markdown renderer's table.
 */
export function emojiByName(name: string): { emojiCode: string; reactionType: ReactionType } {
  if (ZULIP_EXTRA_EMOJI.includes(name)) return { emojiCode: name, reactionType: "zulip_extra_emoji" };
  const code = Object.hasOwn(EMOJI_CODEPOINTS, name) ? EMOJI_CODEPOINTS[name] : undefined;
  if (code === undefined) throw new JsonableError(`Emoji '${name}' does not exist`);
  return { emojiCode: code, reactionType: "unicode_emoji" };
}

/**
 * Zulip's check_emoji_request: whether (name, code, type) names an emoji a new reaction may use,
 * with Zulip's texts. Custom emoji cannot be validated (this server has none), so `realm_emoji` is
 * always "Invalid custom emoji.".
 */
export function checkEmoji(name: string, code: string, type: string): ReactionType {
  switch (type) {
    case "realm_emoji":
      throw new JsonableError("Invalid custom emoji.");
    case "zulip_extra_emoji":
      if (!ZULIP_EXTRA_EMOJI.includes(code)) throw new JsonableError("Invalid emoji code.");
      if (name !== code) throw new JsonableError("Invalid emoji name.");
      return type;
    case "unicode_emoji":
      if (!UNICODE_CODES.has(code)) throw new JsonableError("Invalid emoji code.");
      if (!Object.hasOwn(EMOJI_CODEPOINTS, name) || EMOJI_CODEPOINTS[name] !== code) {
        throw new JsonableError("Invalid emoji name.");
      }
      return type;
    default:
      throw new JsonableError("Invalid emoji type.");
  }
}
