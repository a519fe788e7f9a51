import { JsonableError } from "../../errors.js";
import type { MessageScope } from "../../store/messages-repo.js";
import type { User } from "../users/types.js";
import { accessMessage } from "./access.js";
import { LARGER_THAN_MAX_MESSAGE_ID, MAX_MESSAGES_PER_FETCH } from "./content.js";
import { Flag, flagNames } from "./flag-bits.js";
import { narrowScope, narrowSearchTerms } from "./narrow.js";
import type { MessageDeps } from "./ports.js";
import { wireMany, wireOne } from "./present.js";
import { highlightHtml, highlightText } from "./search.js";
import type { FetchRequest, FetchResult, PresentOptions } from "./types.js";

const DEFAULT_PRESENT: PresentOptions = { applyMarkdown: true, clientGravatar: false };

/** GET /messages/{id}: the message (with `flags`) and its Markdown source. */
export async function getWithRawContent(
  deps: MessageDeps,
  user: User,
  id: number,
  present: PresentOptions = DEFAULT_PRESENT,
): Promise<{ rawContent: string; message: Record<string, unknown> }> {
  const { message, flags } = await accessMessage(deps, user, id);
  return {
    rawContent: message.content,
    message: { ...(await wireOne(deps, message, present)), flags: flagNames(flags) },
  };
}

/** GET /messages: a range of the narrow around an anchor (Zulip's get_messages_backend). */
export async function fetchMessages(deps: MessageDeps, user: User, req: FetchRequest): Promise<FetchResult> {
  if (req.numBefore + req.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw new JsonableError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  const scope = await narrowScope(deps, user, req.narrow);
  const range = await anchoredRange(deps, user, scope, req);
  const messages = await deps.store.read.messages.byIds(range.rows.map((r) => r.id));
  const wires = await wireMany(deps, messages, req.present);
  const flagsById = new Map(range.rows.map((r) => [r.id, r.flags]));
  const terms = narrowSearchTerms(req.narrow);
  if (terms !== undefined) {
    // Zulip adds the highlighted matches to each message of a search.
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (const w of wires) {
      const m = byId.get(w["id"] as number);
      if (m === undefined) continue;
      w["match_content"] = highlightHtml(m.renderedContent, terms);
      w["match_subject"] = highlightText(m.topic, terms);
    }
  }
  return {
    anchor: range.anchor,
    foundAnchor: range.foundAnchor,
    foundOldest: range.foundOldest,
    foundNewest: range.foundNewest,
    historyLimited: false,
    messages: wires.map((w) => ({ ...w, flags: flagNames(flagsById.get(w["id"] as number) ?? 0) })),
  };
}

export interface RangeRequest {
  anchor: FetchRequest["anchor"];
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface AnchoredRange {
  /** The anchor as a message id (newest is LARGER_THAN_MAX_MESSAGE_ID, oldest 0). */
  anchor: number;
  /** The messages of the range, ascending, with the user's flags. */
  rows: { id: number; flags: number }[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/**
 * The messages of `scope` around an anchor (Zulip's fetch query and post_process_limited_query),
 * shared by GET /messages and POST /messages/flags/narrow.
 */
export async function anchoredRange(
  deps: MessageDeps,
  user: User,
  scope: MessageScope,
  req: RangeRequest,
): Promise<AnchoredRange> {
  const numBefore = req.numBefore;
  let numAfter = req.numAfter;
  if (numBefore > 0 && numAfter > 0 && !req.includeAnchor) {
    throw new JsonableError("The anchor can only be excluded at an end of the range");
  }
  let anchor: number;
  if (req.anchor === "newest") anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (req.anchor === "oldest") anchor = 0;
  else if (req.anchor === "first_unread") anchor = await firstUnread(deps, user, scope);
  else anchor = Math.min(Math.max(req.anchor, 0), LARGER_THAN_MAX_MESSAGE_ID);
  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor === LARGER_THAN_MAX_MESSAGE_ID;
  if (anchoredToRight) numAfter = 0;

  const include = req.includeAnchor ? 1 : 0;
  const needBefore = !anchoredToLeft && numBefore > 0;
  const needAfter = !anchoredToRight && numAfter > 0;
  const repo = deps.store.read.flags;
  let rows: { id: number; flags: number }[] = [];
  if (needBefore && needAfter) {
    rows = [
      ...(await repo.range(scope, "<=", anchor - 1, "DESC", numBefore)),
      ...(await repo.range(scope, ">=", anchor, "ASC", numAfter + 1)),
    ];
  } else if (needBefore) {
    rows = await repo.range(
      scope,
      "<=",
      anchor - (1 - include),
      "DESC",
      numBefore + (anchoredToRight ? 0 : include),
    );
  } else if (needAfter) {
    rows = await repo.range(scope, ">=", anchor + (1 - include), "ASC", numAfter + include);
  } else {
    rows = await repo.range(scope, "=", anchor, "ASC", 1);
  }
  rows.sort((a, b) => a.id - b.id);

  // Zulip's post_process_limited_query.
  let before = anchoredToRight ? rows : rows.filter((r) => r.id < anchor);
  const at = anchoredToRight ? [] : rows.filter((r) => r.id === anchor);
  let after = anchoredToRight ? [] : rows.filter((r) => r.id > anchor);
  if (numBefore > 0) before = before.slice(-numBefore);
  if (numAfter > 0) after = after.slice(0, numAfter);
  return {
    anchor,
    rows: [...before, ...at, ...after],
    foundAnchor: at.length === 1,
    foundOldest: anchoredToLeft || before.length < numBefore,
    foundNewest: anchoredToRight || after.length < numAfter,
  };
}

async function firstUnread(deps: MessageDeps, user: User, scope: MessageScope): Promise<number> {
  const muted = await deps.streams.mutedTopicKeys(user.id);
  const topics = [...muted].map((key) => {
    const i = key.indexOf(":");
    return { streamId: Number(key.slice(0, i)), topicLower: key.slice(i + 1) };
  });
  const unreadScope: MessageScope = {
    userId: user.id,
    conditions: [
      ...scope.conditions,
      { kind: "flag", bits: Flag.read, negated: true },
      { kind: "not-muted", topics },
    ],
  };
  const [first] = await deps.store.read.flags.range(unreadScope, ">=", 0, "ASC", 1);
  return first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/**
 * GET /messages/matches_narrow: which of `ids` (messages the user can read) match the narrow, each
 * with its rendered content and topic, matches highlighted when the narrow searches.
 */
export async function matchesNarrow(
  deps: MessageDeps,
  user: User,
  ids: readonly number[],
  narrow: FetchRequest["narrow"],
): Promise<Record<string, { match_content: string; match_subject: string }>> {
  const scope = await narrowScope(deps, user, narrow);
  const matching = await deps.store.read.flags.matchingIds(scope, [...new Set(ids)]);
  const terms = narrowSearchTerms(narrow) ?? [];
  const out: Record<string, { match_content: string; match_subject: string }> = {};
  for (const m of await deps.store.read.messages.byIds(matching)) {
    out[String(m.id)] = {
      match_content: highlightHtml(m.renderedContent, terms),
      match_subject: highlightText(m.topic, terms),
    };
  }
  return out;
}
