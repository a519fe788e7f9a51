import type { EventRecipient } from "./event-sink.js";

/** Reading a publication's recipients: a bare number is a recipient without per-user data. */

export function idOf(r: number | EventRecipient): number {
  return typeof r === "number" ? r : r.id;
}

export function flagsOf(r: number | EventRecipient): readonly string[] | undefined {
  return typeof r === "number" ? undefined : r.flags;
}

/** True when the ids are strictly ascending (a stream's subscriber list): no duplicate to skip. */
export function strictlyAscending(recipients: readonly (number | EventRecipient)[]): boolean {
  for (let i = 1; i < recipients.length; i++) {
    if (idOf(recipients[i]!) <= idOf(recipients[i - 1]!)) return false;
  }
  return true;
}

/** Binary search for a user id in a strictly ascending recipient list. */
export function hasRecipient(recipients: readonly (number | EventRecipient)[], id: number): boolean {
  let lo = 0;
  let hi = recipients.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = idOf(recipients[mid]!);
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
