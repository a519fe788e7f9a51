import { PERMISSION_SETTINGS, STREAM_PERMISSION_NAMES, defaultValue } from "../user-groups/group-settings.js";
import type { GroupSettingValue, StreamPermissionName } from "../user-groups/group-settings.js";
import { SystemGroup } from "../user-groups/user-groups-service.js";
import type { Stream } from "./types.js";

/**
 * A stream's value of one group-based permission setting: the one set, else Zulip's default.
 * `can_send_message_group` follows the stream's announcement-only flag until it is set (the
 * administrators for an announcement-only stream, everyone otherwise; Zulip's level 333 mapping).
 */
export function streamSetting(stream: Stream, name: StreamPermissionName): GroupSettingValue {
  const stored = stream.groupSettings[name];
  if (stored !== undefined) return stored;
  if (name === "can_send_message_group") {
    return stream.isAnnouncementOnly ? SystemGroup.ADMINISTRATORS : SystemGroup.EVERYONE;
  }
  return defaultValue(PERMISSION_SETTINGS.stream[name]);
}

/** Every setting of the stream, as stream objects carry them. */
export function streamSettings(stream: Stream): Record<StreamPermissionName, GroupSettingValue> {
  return Object.fromEntries(STREAM_PERMISSION_NAMES.map((n) => [n, streamSetting(stream, n)])) as Record<
    StreamPermissionName,
    GroupSettingValue
  >;
}
