import type { User } from "../users/types.js";
import { accessMessage } from "./access.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";

/**
 * GET /messages/{id}/read_receipts (Zulip's read_receipts): who has read a message the user can
 * access, ascending; never the sender, nor anyone who turned `send_read_receipts` off.
 */
export async function readReceipts(deps: MessageDeps, user: User, id: number): Promise<number[]> {
  const { message } = await accessMessage(deps, user, id);
  const repo = deps.store.read;
  const readers: number[] = [];
  for (const row of await repo.flags.rowsOfMessage(id)) {
    if (row.userId === message.senderId || (row.flags & Flag.read) === 0) continue;
    const settings = await repo.users.userSettings(row.userId);
    if (settings["send_read_receipts"] === false) continue;
    readers.push(row.userId);
  }
  return readers;
}
