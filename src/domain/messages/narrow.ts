import { BadNarrowError } from "../../errors.js";
import type { MessageScope } from "../../store/messages-repo.js";
import type { User } from "../users/types.js";
import { canReadHistory } from "./access.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import type { MessageCondition, NarrowTerm } from "./types.js";

/** Narrow terms → range-query conditions (Zulip's NarrowBuilder), with its BAD_NARROW texts. */
export async function narrowScope(
  deps: MessageDeps,
  user: User,
  narrow: readonly NarrowTerm[],
): Promise<MessageScope> {
  const conditions: MessageCondition[] = [];
  let historyOfStreamId: number | undefined;
  let usesFlags = false;
  for (const term of narrow) {
    const { operand, negated } = term;
    const text = Array.isArray(operand) ? operand.join(",") : String(operand);
    switch (term.operator) {
      case "stream":
      case "channel": {
        const stream =
          typeof operand === "number" ? await deps.streams.byId(operand) : await deps.streams.byName(text);
        if (stream === undefined) throw new BadNarrowError(`unknown stream ${text}`);
        conditions.push({ kind: "stream", streamId: stream.id, negated });
        if (!negated && (await canReadHistory(deps, user, stream))) historyOfStreamId = stream.id;
        break;
      }
      case "topic":
      case "subject":
        conditions.push({ kind: "topic", topic: text, negated });
        break;
      case "sender": {
        const sender = await userByOperand(deps, operand);
        if (sender === undefined) throw new BadNarrowError(`unknown user ${text}`);
        conditions.push({ kind: "sender", userId: sender.id, negated });
        break;
      }
      case "pm-with":
      case "dm": {
        const items = Array.isArray(operand)
          ? operand
          : typeof operand === "number"
            ? [operand]
            : text.split(",").filter((s) => s.trim() !== "");
        const ids = new Set([user.id]);
        for (const item of items) {
          const other = await userByOperand(deps, typeof item === "string" ? item.trim() : item);
          if (other === undefined) throw new BadNarrowError(`unknown user in ${text}`);
          ids.add(other.id);
        }
        conditions.push({ kind: "pm", pmKey: [...ids].sort((a, b) => a - b).join(","), negated });
        break;
      }
      case "is": {
        usesFlags = true;
        const bits: Partial<Record<string, number>> = {
          starred: Flag.starred,
          mentioned: Flag.mentioned | Flag.wildcard_mentioned,
          alerted: Flag.has_alert_word,
        };
        if (text === "private" || text === "dm") conditions.push({ kind: "private", negated });
        else if (text === "unread") conditions.push({ kind: "flag", bits: Flag.read, negated: !negated });
        else if (bits[text] !== undefined) conditions.push({ kind: "flag", bits: bits[text], negated });
        else throw new BadNarrowError(`unknown 'is' operand ${text}`);
        break;
      }
      case "near":
      case "in":
        break;
      default:
        throw new BadNarrowError(`unknown operator ${term.operator}`);
    }
  }
  return { userId: user.id, historyOfStreamId: usesFlags ? undefined : historyOfStreamId, conditions };
}

async function userByOperand(deps: MessageDeps, operand: unknown): Promise<User | undefined> {
  if (typeof operand === "number") return deps.users.byId(operand);
  if (typeof operand === "string") return deps.users.byEmail(operand);
  return undefined;
}
