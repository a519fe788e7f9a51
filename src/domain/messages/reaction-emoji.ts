import { JsonableError } from "../../errors.js";
import { EMOJI_CODEPOINTS } from "../markdown/emoji.js";
import type { CustomEmojiRef, CustomEmojiSource } from "../markdown/emoji-custom.js";
import type { ReactionType } from "./types.js";

/** Zulip's only `zulip_extra_emoji`: name and code are both "zulip". */
const ZULIP_EXTRA_EMOJI = ["zulip"];

const UNICODE_CODES = new Set(Object.values(EMOJI_CODEPOINTS));

/**
 * Zulip's emoji_name_to_emoji_code: the code and type an emoji name stands for: `custom` (the
 * active custom emoji of that name, if any), else the Zulip extra emoji or a Unicode name.
 */
export function emojiByName(
  name: string,
  custom?: CustomEmojiRef,
): { emojiCode: string; reactionType: ReactionType } {
  // An active custom emoji wins over the built-in names (Zulip's get_emoji_data).
  if (custom !== undefined && custom.name === name && !custom.deactivated) {
    return { emojiCode: custom.id, reactionType: "realm_emoji" };
  }
  if (ZULIP_EXTRA_EMOJI.includes(name)) return { emojiCode: name, reactionType: "zulip_extra_emoji" };
  const code = Object.hasOwn(EMOJI_CODEPOINTS, name) ? EMOJI_CODEPOINTS[name] : undefined;
  if (code === undefined) throw new JsonableError(`Emoji '${name}' does not exist`);
  return { emojiCode: code, reactionType: "unicode_emoji" };
}

/**
 * Zulip's check_emoji_request: whether (name, code, type) names an emoji a new reaction may use,
 * with Zulip's texts. For `realm_emoji`, `custom` is the custom emoji whose id is `code`, if any.
 */
export function checkEmoji(name: string, code: string, type: string, custom?: CustomEmojiRef): ReactionType {
  switch (type) {
    case "realm_emoji":
      if (custom?.id !== code) throw new JsonableError("Invalid custom emoji.");
      if (custom.name !== name) throw new JsonableError("Invalid custom emoji name.");
      if (custom.deactivated) throw new JsonableError("This custom emoji has been deactivated.");
      return type;
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

/** emojiByName with the realm's active custom emoji of that name looked up in `source`. */
export async function emojiByNameWith(
  source: CustomEmojiSource | undefined,
  name: string,
): Promise<{ emojiCode: string; reactionType: ReactionType }> {
  const [custom] = source === undefined ? [] : await source.activeNamed([name]);
  return emojiByName(name, custom);
}

/** checkEmoji with a `realm_emoji` code looked up in `source`. */
export async function checkEmojiWith(
  source: CustomEmojiSource | undefined,
  name: string,
  code: string,
  type: string,
): Promise<ReactionType> {
  const custom = type === "realm_emoji" && source !== undefined ? await source.byCode(code) : undefined;
  return checkEmoji(name, code, type, custom);
}
