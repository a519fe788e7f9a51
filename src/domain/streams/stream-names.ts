import { JsonableError } from "../../errors.js";
import { MAX_STREAM_NAME_LENGTH } from "./types.js";

const INVALID_CHAR = /[\p{Cc}\p{Cs}\p{Cn}]/u;

/**
 * Zulip's check_stream_name: not empty, at most 60 characters, no control, surrogate or unassigned
 * characters (positions count from 1). `name` is already stripped.
 */
export function checkStreamName(name: string): void {
  if (name === "") throw new JsonableError("Stream name can't be empty!");
  const chars = [...name];
  if (chars.length > MAX_STREAM_NAME_LENGTH) {
    throw new JsonableError(`Stream name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  chars.forEach((ch, i) => {
    if (INVALID_CHAR.test(ch))
      throw new JsonableError(`Invalid character in stream name, at position ${i + 1}!`);
  });
}

const HEX_COLOR = /^#([a-fA-F0-9]{3,6})$/;

/**
 * Zulip's check_color ("#" + 3–6 hex digits), also accepting the digits without "#": returns the
 * colour with its "#". Errors name `varName`: "color is not a valid hex color code".
 */
export function normalizeColor(value: unknown, varName: string): string {
  if (typeof value !== "string") throw new JsonableError(`${varName} is not a string`);
  const color = value.startsWith("#") ? value : `#${value}`;
  if (!HEX_COLOR.test(color)) throw new JsonableError(`${varName} is not a valid hex color code`);
  return color;
}
