import { JsonableError } from "../../errors.js";

/**
 * Zulip's upload_emoji name handling: surrounding spaces dropped, inner spaces become underscores,
 * then check_valid_emoji_name (lowercase letters, digits, dashes and underscores, ending with a
 * letter or digit), with Zulip's texts.
 */
export function normalizeEmojiName(raw: string): string {
  const name = raw.trim().replace(/ /g, "_");
  if (name === "") throw new JsonableError("Emoji name is missing");
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw new JsonableError("Emoji names must end with either a letter or digit.");
    return name;
  }
  throw new JsonableError(
    "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
  );
}
