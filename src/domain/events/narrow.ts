import { JsonableError } from "../../errors.js";

/** One term of a queue's narrow: `["stream", "Denmark"]` or `{operator, operand, negated}`. */
export interface NarrowTerm {
  operator: string;
  operand: string | number;
  negated: boolean;
}

/** The operators a queue narrow may use (Zulip's check_narrow_for_events). */
const EVENT_OPERATORS = new Set(["stream", "channel", "topic", "sender", "is"]);
/** Zulip's mark of a resolved topic (`is:resolved`; messages/edit.ts resolves and unresolves). */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

/**
 * Validates a decoded `narrow` argument (a list of `[operator, operand]` pairs or of
 * `{operator, operand, negated?}` objects) for an event queue.
 */
export function parseEventNarrow(value: unknown, name = "narrow"): NarrowTerm[] {
  if (!Array.isArray(value)) throw new JsonableError(`${name} is not a list`);
  return value.map((item: unknown, i) => {
    const at = `${name}[${i}]`;
    let term: NarrowTerm;
    if (Array.isArray(item)) {
      if (item.length !== 2) throw new JsonableError(`${at} should have exactly 2 items`);
      const [operator, operand] = item as unknown[];
      if (typeof operator !== "string") throw new JsonableError(`${at}[0] is not a string`);
      if (typeof operand !== "string" && typeof operand !== "number")
        throw new JsonableError(`${at}[1] is not a string`);
      term = { operator, operand, negated: false };
    } else if (typeof item === "object" && item !== null) {
      const d = item as Record<string, unknown>;
      const { operator, operand, negated } = d;
      if (typeof operator !== "string") throw new JsonableError(`${at}["operator"] is not a string`);
      if (typeof operand !== "string" && typeof operand !== "number")
        throw new JsonableError(`${at}["operand"] is not a string`);
      if (negated !== undefined && typeof negated !== "boolean")
        throw new JsonableError(`${at}["negated"] is not a boolean`);
      term = { operator, operand, negated: negated ?? false };
    } else {
      throw new JsonableError(`${at} is not a list`);
    }
    if (!EVENT_OPERATORS.has(term.operator))
      throw new JsonableError(`Operator ${term.operator} not supported.`);
    return term;
  });
}

function lower(v: unknown): string {
  return typeof v === "string" ? v.toLowerCase() : String(v);
}

function satisfies(term: NarrowTerm, message: Record<string, unknown>, flags: readonly string[]): boolean {
  const isStream = message["type"] === "stream";
  const topic = message["subject"] ?? message["topic"] ?? "";
  switch (term.operator) {
    case "stream":
    case "channel":
      if (!isStream) return false;
      return typeof term.operand === "number"
        ? message["stream_id"] === term.operand
        : lower(term.operand) === lower(message["display_recipient"]);
    case "topic":
      return isStream && lower(term.operand) === lower(topic);
    case "sender":
      return typeof term.operand === "number"
        ? message["sender_id"] === term.operand
        : lower(term.operand) === lower(message["sender_email"]);
    case "is":
      switch (term.operand) {
        case "private":
        case "dm":
          return message["type"] === "private";
        case "starred":
          return flags.includes("starred");
        case "unread":
          return !flags.includes("read");
        case "mentioned":
        case "alerted":
          return flags.includes("mentioned");
        case "resolved":
          return typeof topic === "string" && topic.startsWith(RESOLVED_TOPIC_PREFIX);
        default:
          return true;
      }
    default:
      return true;
  }
}

/** Whether a message (wire dict) with the recipient's `flags` matches every term of `narrow`. */
export function matchesNarrow(
  narrow: readonly NarrowTerm[],
  message: Record<string, unknown>,
  flags: readonly string[],
): boolean {
  for (const term of narrow) {
    if (satisfies(term, message, flags) === term.negated) return false;
  }
  return true;
}
