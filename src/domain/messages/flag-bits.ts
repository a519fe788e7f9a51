/**
 * Zulip's UserMessage flags as a bitmask. The API lists flag names in bit order and never shows
 * the internal `is_private` bit.
 */
export const Flag = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  wildcard_mentioned: 16,
  has_alert_word: 512,
  historical: 1024,
  is_private: 2048,
} as const;

export type FlagName = keyof typeof Flag;

/** Flags a client may change through POST /messages/flags. */
export const EDITABLE_FLAGS: readonly string[] = ["read", "starred", "collapsed"];

/** Every flag name the API knows (others: "Invalid flag"). */
export const API_FLAGS: readonly string[] = [
  "read",
  "starred",
  "collapsed",
  "mentioned",
  "wildcard_mentioned",
  "has_alert_word",
  "historical",
];

/** The flags of a row the user never received but may read (public history): read + historical. */
export const HISTORICAL_FLAGS = Flag.read | Flag.historical;

/** The API's list of flag names for a bitmask. */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (const name of API_FLAGS) {
    if ((bits & Flag[name as FlagName]) !== 0) names.push(name);
  }
  return names;
}
