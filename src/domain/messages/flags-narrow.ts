import { JsonableError } from "../../errors.js";
import type { User } from "../users/types.js";
import { MAX_MESSAGES_PER_FETCH } from "./content.js";
import { anchoredRange } from "./fetch.js";
import type { RangeRequest } from "./fetch.js";
import { checkFlagChange, publishFlags } from "./flags.js";
import { Flag } from "./flag-bits.js";
import type { FlagName } from "./flag-bits.js";
import { narrowScope } from "./narrow.js";
import type { MessageDeps } from "./ports.js";
import type { NarrowTerm } from "./types.js";

export interface FlagsForNarrowRequest extends RangeRequest {
  narrow: readonly NarrowTerm[];
  op: string;
  flag: string;
}

export interface FlagsForNarrowResult {
  processedCount: number;
  updatedCount: number;
  firstProcessedId: number | null;
  lastProcessedId: number | null;
  foundOldest: boolean;
  foundNewest: boolean;
}

/**
 * POST /messages/flags/narrow (Zulip's update_message_flags_in_narrow): changes a flag on the
 * messages of a narrow around an anchor, among those the user received (history they never received
 * is not processed, as in Zulip).
 */
export async function updateFlagsForNarrow(
  deps: MessageDeps,
  user: User,
  req: FlagsForNarrowRequest,
): Promise<FlagsForNarrowResult> {
  checkFlagChange(req.op, req.flag);
  if (req.numBefore + req.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw new JsonableError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  const scope = { ...(await narrowScope(deps, user, req.narrow)), historyOfStreamId: undefined };
  const range = await anchoredRange(deps, user, scope, req);
  const ids = range.rows.map((r) => r.id);
  const bit = Flag[req.flag as FlagName];
  const changed =
    ids.length === 0
      ? []
      : await deps.store.transaction(({ flags }) =>
          flags.changeFlag(user.id, bit, req.op === "add", { messageIds: ids }),
        );
  if (changed.length > 0) await publishFlags(deps, user.id, req.op, req.flag, changed);
  return {
    processedCount: ids.length,
    updatedCount: changed.length,
    firstProcessedId: ids[0] ?? null,
    lastProcessedId: ids[ids.length - 1] ?? null,
    foundOldest: range.foundOldest,
    foundNewest: range.foundNewest,
  };
}
