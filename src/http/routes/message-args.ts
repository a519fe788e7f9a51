import { JsonableError, RequestVariableInvalidError } from "../../errors.js";
import type { Anchor, NarrowTerm } from "../../domain/messages/types.js";
import { tryJson } from "../params.js";
import type { Parser } from "../params.js";
import type { AppContext } from "../state.js";

/** Arguments shared by the message routes: anchors, narrows, counts and the message id in the path. */

export const nonNegative: Parser<number> = (raw, name) => {
  const s = raw.trim();
  if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) < 0) {
    throw new RequestVariableInvalidError(name, raw);
  }
  return Number(s);
};

export const anchorParser: Parser<Anchor> = (raw) => {
  if (raw === "newest" || raw === "oldest" || raw === "first_unread") return raw;
  const s = raw.trim();
  if (!/^-?\d+$/.test(s)) throw new JsonableError("Invalid anchor");
  return Number(s);
};

/**
 * Zulip finds an operator's handler by name with "-" read as "_", so `pm_with` works as `pm-with`
 * (zulip-terminal sends it so); these are the operators whose names have a "-".
 */
const UNDERSCORE_SPELLINGS: Readonly<Record<string, string>> = {
  pm_with: "pm-with",
  group_pm_with: "group-pm-with",
  dm_including: "dm-including",
};

/** Operators whose operand may be an integer id (a user, a channel or a message). */
const INTEGER_OPERAND_OPERATORS = [
  "sender",
  "stream",
  "channel",
  "pm-with",
  "dm",
  "dm-including",
  "group-pm-with",
  "id",
  "near",
  "with",
];

/** Zulip's narrow_parameter: `[operator, operand]` pairs or `{operator, operand, negated}` dicts. */
export const narrowParser: Parser<NarrowTerm[]> = (raw, name) => {
  const parsed = tryJson(raw);
  const bad = () => new RequestVariableInvalidError(name, raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) throw bad();
  return (parsed.value as unknown[]).map((elem): NarrowTerm => {
    if (Array.isArray(elem)) {
      const [operator, operand] = elem as unknown[];
      if (elem.length !== 2 || typeof operator !== "string" || typeof operand !== "string") throw bad();
      return { operator: UNDERSCORE_SPELLINGS[operator] ?? operator, operand, negated: false };
    }
    if (typeof elem !== "object" || elem === null) throw bad();
    const d = elem as Record<string, unknown>;
    const rawOperator = d["operator"];
    const operator =
      typeof rawOperator === "string" ? (UNDERSCORE_SPELLINGS[rawOperator] ?? rawOperator) : rawOperator;
    const operand = d["operand"];
    const negated = d["negated"] ?? false;
    if (typeof operator !== "string") throw new JsonableError('elem["operator"] is not a string');
    const okOperand =
      typeof operand === "string" ||
      (Number.isSafeInteger(operand) && INTEGER_OPERAND_OPERATORS.includes(operator)) ||
      (Array.isArray(operand) &&
        ["pm-with", "dm", "group-pm-with", "dm-including"].includes(operator) &&
        operand.every((x) => typeof x === "number" && Number.isSafeInteger(x)));
    if (!okOperand) throw new JsonableError('elem["operand"] is not a string');
    if (typeof negated !== "boolean") throw new JsonableError('elem["negated"] is not a boolean');
    return { operator, operand: operand as NarrowTerm["operand"], negated };
  });
};

export function messageId(ctx: AppContext): number {
  const raw = (ctx.params as Record<string, string | undefined>)["id"] ?? "";
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new JsonableError("Invalid message(s)");
  return Number(raw);
}
