import type { GroupSettingValue } from "./group-settings.js";

/** A user group as the service hands it out (the wire form is userGroupWire). */
export interface UserGroupView {
  id: number;
  name: string;
  description: string;
  members: number[];
  directSubgroupIds: number[];
  isSystemGroup: boolean;
  /** Who may mention the group with `@*name*` (Zulip 8.0, feature levels 191/198/258). */
  canMentionGroup: GroupSettingValue;
}
