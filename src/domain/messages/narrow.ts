import { BadNarrowError, JsonableError } from "../../errors.js";
import type { MessageScope } from "../../store/messages-repo.js";
import type { User } from "../users/types.js";
import { accessMessage, canReadHistory } from "./access.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import { searchTerms } from "./search.js";
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
  for (const term of await resolveWith(deps, user, narrow)) {
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
      case "dm-including":
      case "group-pm-with": {
        const other = await userByOperand(deps, typeof operand === "string" ? operand.trim() : operand);
        if (other === undefined) throw new BadNarrowError(`unknown user ${text}`);
        conditions.push({ kind: "pm-including", userId: other.id, negated });
        break;
      }
      case "channels":
      case "streams":
        if (text !== "public" && text !== "web-public") {
          throw new BadNarrowError(`Invalid '${term.operator}' operand: ${text}`);
        }
        conditions.push({ kind: "public-streams", webPublicOnly: text === "web-public", negated });
        break;
      case "with":
        // A `with` naming no readable message leaves the narrow as it is (resolveWith).
        break;
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
        else if (text === "resolved") conditions.push({ kind: "resolved", negated });
        else if (text === "followed" || text === "muted" || text === "unmuted") {
          conditions.push({ kind: "topics", topics: await topicsWithPolicy(deps, user, text), negated });
        } else if (text === "unread") conditions.push({ kind: "flag", bits: Flag.read, negated: !negated });
        else if (bits[text] !== undefined) conditions.push({ kind: "flag", bits: bits[text], negated });
        else throw new BadNarrowError(`unknown 'is' operand ${text}`);
        break;
      }
      case "search":
        conditions.push({ kind: "search", terms: searchTerms(text), negated });
        break;
      case "has":
        if (text === "reaction") {
          conditions.push({ kind: "reacted", negated });
          break;
        }
        if (text !== "link" && text !== "image" && text !== "attachment") {
          throw new BadNarrowError(`unknown 'has' operand ${text}`);
        }
        conditions.push({ kind: "has", what: text, negated });
        break;
      case "id":
        if (!/^[0-9]+$/.test(text)) throw new BadNarrowError("Invalid message ID");
        conditions.push({ kind: "id", id: Number(text), negated });
        break;
      case "in":
        // "home" leaves muted streams and topics out (Zulip's exclude_muting_conditions).
        if (text !== "home" && text !== "all") throw new BadNarrowError(`unknown 'in' operand ${text}`);
        if (text === "home" && !negated) conditions.push(...(await mutingConditions(deps, user)));
        break;
      case "near":
        break;
      default:
        throw new BadNarrowError(`unknown operator ${term.operator}`);
    }
  }
  return { userId: user.id, historyOfStreamId: usesFlags ? undefined : historyOfStreamId, conditions };
}

/** Operators that name a conversation, which a `with` operator moves to where its message is now. */
const CONVERSATION_OPERATORS = new Set(["stream", "channel", "topic", "subject", "dm", "pm-with"]);

/**
 * Zulip's `with` operator: when its message exists and the user can read it, the narrow's
 * conversation (channel and topic, or direct-message participants) becomes that message's
 * current one, so a link to a moved conversation still finds it.
 */
async function resolveWith(
  deps: MessageDeps,
  user: User,
  narrow: readonly NarrowTerm[],
): Promise<readonly NarrowTerm[]> {
  const term = narrow.find((t) => t.operator === "with" && !t.negated);
  if (term === undefined) return narrow;
  const id = Number(term.operand);
  if (!Number.isSafeInteger(id)) throw new BadNarrowError("Invalid 'with' operand");
  let message;
  try {
    ({ message } = await accessMessage(deps, user, id));
  } catch (err) {
    if (err instanceof JsonableError) return narrow;
    throw err;
  }
  const rest = narrow.filter((t) => !CONVERSATION_OPERATORS.has(t.operator) || t.negated);
  const conversation: NarrowTerm[] =
    message.streamId === null
      ? [{ operator: "dm", operand: (message.pmKey ?? "").split(",").map(Number), negated: false }]
      : [
          { operator: "channel", operand: message.streamId, negated: false },
          { operator: "topic", operand: message.topic, negated: false },
        ];
  return [...conversation, ...rest];
}

/** The user's topics with a visibility policy (muted topics are kept apart from the others). */
async function topicsWithPolicy(
  deps: MessageDeps,
  user: User,
  policy: "followed" | "muted" | "unmuted",
): Promise<{ streamId: number; topicLower: string }[]> {
  const repo = deps.store.read.streams;
  if (policy === "muted") {
    return (await repo.mutedTopicRows(user.id)).map((r) => ({
      streamId: r.streamId,
      topicLower: r.topic.toLowerCase(),
    }));
  }
  const wanted = policy === "followed" ? 3 : 2;
  return (await repo.topicPolicies(user.id))
    .filter((r) => r.policy === wanted)
    .map((r) => ({ streamId: r.streamId, topicLower: r.topic.toLowerCase() }));
}

async function userByOperand(deps: MessageDeps, operand: unknown): Promise<User | undefined> {
  if (typeof operand === "number") return deps.users.byId(operand);
  if (typeof operand === "string") return deps.users.byEmail(operand);
  return undefined;
}

/** The search terms of a narrow's non-negated `search` operators (for highlighting). */
export function narrowSearchTerms(narrow: readonly NarrowTerm[]): string[] | undefined {
  const terms = narrow.filter((t) => t.operator === "search" && !t.negated);
  if (terms.length === 0) return undefined;
  return terms.flatMap((t) =>
    searchTerms(Array.isArray(t.operand) ? t.operand.join(" ") : String(t.operand)),
  );
}

async function mutingConditions(deps: MessageDeps, user: User): Promise<MessageCondition[]> {
  const topics = [...(await deps.streams.mutedTopicKeys(user.id))].map((key) => {
    const i = key.indexOf(":");
    return { streamId: Number(key.slice(0, i)), topicLower: key.slice(i + 1) };
  });
  const streams = await deps.streams.mutedStreamIds(user.id);
  return [
    { kind: "not-muted", topics },
    ...streams.map((streamId): MessageCondition => ({ kind: "stream", streamId, negated: true })),
  ];
}
