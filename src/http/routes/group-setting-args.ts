import { parseGroupSettingUpdate, parseGroupSettingValue } from "../../domain/user-groups/group-settings.js";
import type { GroupSettingUpdate, GroupSettingValue } from "../../domain/user-groups/group-settings.js";
import { parseJson } from "../params.js";
import type { Params, Parser } from "../params.js";

/** A group-setting value argument (JSON: a group id, or `{direct_members, direct_subgroups}`). */
export const groupSettingValue: Parser<GroupSettingValue> = (raw, name) =>
  parseGroupSettingValue(parseJson(raw, name), name);

/** A group-setting update argument (JSON `{"new": value, "old": value}`, `old` optional). */
export const groupSettingUpdate: Parser<GroupSettingUpdate> = (raw, name) =>
  parseGroupSettingUpdate(parseJson(raw, name), name);

/** The updates among `names` that the request carries. */
export function groupSettingUpdates<N extends string>(
  params: Params,
  names: readonly N[],
): Partial<Record<N, GroupSettingUpdate>> {
  const out: Partial<Record<N, GroupSettingUpdate>> = {};
  for (const name of names) {
    const raw = params[name];
    if (raw !== undefined) out[name] = groupSettingUpdate(raw, name);
  }
  return out;
}
