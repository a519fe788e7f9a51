/**
 * What the official Zulip mobile app (zulip-flutter) requires of each answer and event it parses,
 * written by reading its deserialisers (`lib/api/model/*.g.dart`, `lib/api/route/*.g.dart` and the
 * hand-written readers they call in `model.dart`, `events.dart`), not derived from this server's code.
 *
 * A `req` key must be present and non-null with the given type, as `json['k'] as T` (or `$enumDecode`)
 * throws otherwise; an `opt` key may be missing or null (`as T?`, `$enumDecodeNullable`, `?? default`),
 * but when present it must have the type, as the cast would throw too.
 */

export type Shape =
  | { t: "int" }
  | { t: "num" }
  | { t: "str" }
  | { t: "bool" }
  | { t: "any" }
  | { t: "color" }
  | { t: "group" }
  | { t: "enum"; values: readonly (string | number)[] }
  | { t: "list"; of: Shape }
  | { t: "map"; of: Shape; intKeys: boolean }
  | { t: "obj"; fields: Readonly<Record<string, Field>> }
  | { t: "check"; name: string; ok: (v: unknown) => boolean };

export interface Field {
  shape: Shape;
  required: boolean;
}

const int: Shape = { t: "int" };
const num: Shape = { t: "num" };
const str: Shape = { t: "str" };
const bool: Shape = { t: "bool" };
const any: Shape = { t: "any" };
/** `GroupSettingValue.fromJson`: a group id, or `{direct_members, direct_subgroups}`. */
const group: Shape = { t: "group" };
const req = (shape: Shape): Field => ({ shape, required: true });
const opt = (shape: Shape): Field => ({ shape, required: false });
const list = (of: Shape): Shape => ({ t: "list", of });
const intMap = (of: Shape): Shape => ({ t: "map", of, intKeys: true });
const strMap = (of: Shape): Shape => ({ t: "map", of, intKeys: false });
const obj = (fields: Record<string, Field>): Shape => ({ t: "obj", fields });
const oneOf = (...values: (string | number)[]): Shape => ({ t: "enum", values });

/** Problems with `value` against `shape`, each naming its path; empty when the app would parse it. */
export function shapeProblems(value: unknown, shape: Shape, path = "$"): string[] {
  const bad = (what: string): string[] => [`${path}: expected ${what}, got ${JSON.stringify(value)}`];
  switch (shape.t) {
    case "int":
      return Number.isInteger(value) ? [] : bad("an integer");
    case "num":
      return typeof value === "number" ? [] : bad("a number");
    case "str":
      return typeof value === "string" ? [] : bad("a string");
    case "bool":
      return typeof value === "boolean" ? [] : bad("a boolean");
    case "any":
      return [];
    case "color":
      // Subscription._readColor: `#rrggbb`, lower-case hex.
      return typeof value === "string" && /^#[0-9a-f]{6}$/.test(value) ? [] : bad("a #rrggbb colour");
    case "group":
      if (Number.isInteger(value)) return [];
      return shapeProblems(value, GroupSettingValueNameless, path);
    case "enum":
      return shape.values.includes(value as string | number)
        ? []
        : bad(`one of ${JSON.stringify(shape.values)}`);
    case "check":
      return shape.ok(value) ? [] : bad(shape.name);
    case "list":
      if (!Array.isArray(value)) return bad("a list");
      return value.flatMap((v, i) => shapeProblems(v, shape.of, `${path}[${i}]`));
    case "map": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return bad("an object");
      return Object.entries(value).flatMap(([k, v]) => [
        ...(shape.intKeys && !/^-?[0-9]+$/.test(k) ? [`${path}: key ${k} is not an integer`] : []),
        ...shapeProblems(v, shape.of, `${path}.${k}`),
      ]);
    }
    case "obj": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return bad("an object");
      const record = value as Record<string, unknown>;
      return Object.entries(shape.fields).flatMap(([k, field]) => {
        const v = record[k];
        if (v === undefined || v === null) return field.required ? [`${path}.${k}: missing`] : [];
        return shapeProblems(v, field.shape, `${path}.${k}`);
      });
    }
  }
}

// ---- model.g.dart ----

export const GroupSettingValueNameless = obj({
  direct_members: req(list(int)),
  direct_subgroups: req(list(int)),
});

export const CustomProfileField = obj({
  id: req(int),
  type: req(any), // $enumDecode with unknownValue: any value, but present
  order: req(int),
  name: req(str),
  hint: req(str),
  field_data: req(str),
  display_in_profile_summary: opt(bool),
});

export const MutedUserItem = obj({ id: req(int) });

export const RealmEmojiItem = obj({
  id: req(str),
  name: req(str),
  source_url: req(str),
  still_url: opt(str),
  deactivated: req(bool),
  author_id: opt(int),
});

export const UserGroup = obj({
  id: req(int),
  members: req(list(int)),
  direct_subgroup_ids: req(list(int)),
  name: req(str),
  description: req(str),
  is_system_group: req(bool),
  deactivated: opt(bool),
});

const ProfileFieldUserData = obj({ value: req(str), rendered_value: opt(str) });

/** User.fromJson; `is_active` is filled in by the snapshot's readers when absent (see below). */
export const User = obj({
  user_id: req(int),
  delivery_email: opt(str),
  email: req(str),
  full_name: req(str),
  date_joined: req(str),
  is_active: req(bool),
  is_bot: req(bool),
  bot_type: opt(int),
  bot_owner_id: opt(int),
  role: req(any),
  timezone: req(str),
  avatar_url: opt(str),
  avatar_version: req(int),
  profile_data: opt(intMap(ProfileFieldUserData)),
  is_system_bot: opt(bool),
});

export const PerUserPresence = obj({ active_timestamp: req(int), idle_timestamp: req(int) });

const channelFields = {
  stream_id: req(int),
  name: req(str),
  is_archived: opt(bool),
  description: req(str),
  rendered_description: req(str),
  date_created: req(int),
  first_message_id: opt(int),
  invite_only: req(bool),
  is_web_public: req(bool),
  history_public_to_subscribers: req(bool),
  message_retention_days: opt(int),
  topics_policy: opt(any),
  stream_post_policy: opt(oneOf(1, 2, 3, 4)),
  folder_id: opt(int),
  can_add_subscribers_group: opt(group),
  can_delete_any_message_group: opt(group),
  can_delete_own_message_group: opt(group),
  can_send_message_group: opt(group),
  can_subscribe_group: opt(group),
  is_recently_active: opt(bool),
  stream_weekly_traffic: opt(int),
} as const;

export const ZulipStream = obj(channelFields);

export const Subscription = obj({
  ...channelFields,
  desktop_notifications: opt(bool),
  email_notifications: opt(bool),
  wildcard_mentions_notify: opt(bool),
  push_notifications: opt(bool),
  audible_notifications: opt(bool),
  pin_to_top: req(bool),
  is_muted: req(bool),
  color: req({ t: "color" }),
});

const Reaction = obj({
  emoji_name: req(str),
  emoji_code: req(str),
  reaction_type: req(oneOf("unicode_emoji", "realm_emoji", "zulip_extra_emoji")),
  user_id: req(int),
});

const Submessage = obj({ sender_id: req(int), msg_type: req(any), content: req(str) });

const messageFields = {
  client: req(str),
  content: req(str),
  content_type: req(str),
  edit_history: opt(list(any)),
  id: req(int),
  is_me_message: req(bool),
  last_edit_timestamp: opt(int),
  reactions: req(list(Reaction)),
  sender_email: req(str),
  sender_full_name: req(str),
  sender_id: req(int),
  sender_realm_str: req(str),
  submessages: opt(list(Submessage)),
  timestamp: req(int),
  flags: req(list(str)),
  match_content: opt(str),
  match_subject: opt(str),
} as const;

/** Message.fromJson: `type` picks StreamMessage or DmMessage; anything else throws. */
export const StreamMessage = obj({
  ...messageFields,
  type: req(oneOf("stream")),
  stream_id: req(int),
  subject: req(str),
  display_recipient: req(str),
});

export const DmMessage = obj({
  ...messageFields,
  type: req(oneOf("private")),
  display_recipient: req(list(obj({ id: req(int) }))),
});

export function messageProblems(m: unknown, path = "$"): string[] {
  const type = (m as { type?: unknown } | null)?.type;
  if (type === "stream") return shapeProblems(m, StreamMessage, path);
  if (type === "private") return shapeProblems(m, DmMessage, path);
  return [`${path}.type: expected "stream" or "private", got ${JSON.stringify(type)}`];
}

// ---- initial_snapshot.g.dart ----

const RealmDefaultExternalAccount = obj({
  name: req(str),
  text: req(str),
  hint: req(str),
  url_pattern: req(str),
});

const ThumbnailFormat = obj({
  name: req(str),
  max_width: req(int),
  max_height: req(int),
  animated: req(bool),
  format: req(str),
});

const UnreadMessagesSnapshot = obj({
  count: req(int),
  pms: req(list(obj({ other_user_id: req(int), unread_message_ids: req(list(int)) }))),
  streams: req(list(obj({ topic: req(str), stream_id: req(int), unread_message_ids: req(list(int)) }))),
  huddles: req(list(obj({ user_ids_string: req(str), unread_message_ids: req(list(int)) }))),
  mentions: req(list(int)),
  old_unreads_missing: req(bool),
});

export const UserSettings = obj({
  twenty_four_hour_time: opt(bool),
  starred_message_counts: req(bool),
  display_emoji_reaction_users: req(bool),
  emojiset: req(any),
  web_inbox_show_channel_folders: opt(bool),
  presence_enabled: req(bool),
});

const UserTopicItem = obj({
  stream_id: req(int),
  topic_name: req(str),
  last_updated: req(int),
  visibility_policy: req(any),
});

/** UserStatusChange.fromJson: every key optional, strings when present. */
const UserStatusChange = obj({
  status_text: opt(str),
  emoji_name: opt(str),
  emoji_code: opt(str),
  reaction_type: opt(str),
});

/**
 * InitialSnapshot.fromJson. The user lists go through `_readUsersIsActiveFallback*`, which fill in
 * `is_active` when the server leaves it out; so `is_active` is not required there.
 */
const SnapshotUser = obj({ ...(User as { fields: Record<string, Field> }).fields, is_active: opt(bool) });

export const InitialSnapshot = obj({
  queue_id: opt(str),
  last_event_id: req(int),
  zulip_feature_level: req(int),
  zulip_version: req(str),
  zulip_merge_base: req(str),
  alert_words: req(list(str)),
  custom_profile_fields: req(list(CustomProfileField)),
  max_stream_name_length: req(int),
  max_topic_length: req(int),
  server_presence_ping_interval_seconds: req(int),
  server_presence_offline_threshold_seconds: req(int),
  server_typing_started_expiry_period_milliseconds: opt(int),
  server_typing_stopped_wait_period_milliseconds: opt(int),
  server_typing_started_wait_period_milliseconds: opt(int),
  muted_users: req(list(MutedUserItem)),
  presences: req(intMap(PerUserPresence)),
  realm_emoji: req(strMap(RealmEmojiItem)),
  realm_user_groups: req(list(UserGroup)),
  recent_private_conversations: req(list(obj({ max_message_id: req(int), user_ids: req(list(int)) }))),
  saved_snippets: opt(
    list(obj({ id: req(int), title: req(str), content: req(str), date_created: req(int) })),
  ),
  subscriptions: req(list(Subscription)),
  channel_folders: opt(list(any)),
  unread_msgs: req(UnreadMessagesSnapshot),
  starred_messages: req(list(int)),
  streams: req(list(ZulipStream)),
  user_status: req(intMap(UserStatusChange)),
  user_settings: req(UserSettings),
  user_topics: req(list(UserTopicItem)),
  devices: opt(intMap(any)),
  realm_can_delete_any_message_group: opt(group),
  realm_can_delete_own_message_group: opt(group),
  realm_delete_own_message_policy: opt(oneOf(1, 2, 3, 4, 5)),
  realm_wildcard_mention_policy: req(oneOf(1, 2, 3, 5, 6, 7)),
  realm_topics_policy: opt(any),
  realm_mandatory_topics: opt(bool),
  realm_name: req(str),
  realm_waiting_period_threshold: req(int),
  realm_message_content_delete_limit_seconds: opt(int),
  realm_allow_message_editing: req(bool),
  realm_message_content_edit_limit_seconds: opt(int),
  realm_enable_read_receipts: req(bool),
  realm_icon_url: req(str),
  realm_presence_disabled: req(bool),
  realm_default_external_accounts: req(strMap(RealmDefaultExternalAccount)),
  max_file_upload_size_mib: req(int),
  server_thumbnail_formats: opt(list(ThumbnailFormat)),
  server_emoji_data_url: req(str),
  event_queue_longpoll_timeout_seconds: req(int),
  realm_moderation_request_channel_id: opt(int),
  realm_empty_topic_display_name: opt(str),
  realm_users: req(list(SnapshotUser)),
  realm_non_active_users: req(list(SnapshotUser)),
  cross_realm_bots: req(list(SnapshotUser)),
  server_report_message_types: opt(list(obj({ key: req(str), name: req(str) }))),
});

// ---- route/*.g.dart ----

export const GetServerSettingsResult = obj({
  authentication_methods: req(obj({ ldap: req(bool) })),
  external_authentication_methods: req(
    list(
      obj({
        name: req(str),
        display_name: req(str),
        display_icon: opt(str),
        login_url: req(str),
        signup_url: req(str),
      }),
    ),
  ),
  zulip_feature_level: req(int),
  zulip_version: req(str),
  zulip_merge_base: req(str),
  push_notifications_enabled: req(bool),
  is_incompatible: req(bool),
  email_auth_enabled: req(bool),
  require_email_format_usernames: req(bool),
  realm_uri: req(str),
  realm_name: req(str),
  realm_icon: req(str),
  realm_description: req(str),
  realm_web_public_access_enabled: req(bool),
});

export const FetchApiKeyResult = obj({ api_key: req(str), email: req(str), user_id: opt(int) });
export const GetOwnUserResult = obj({ user_id: req(int) });
export const SendMessageResult = obj({ id: req(int) });
export const GetMessagesResult = obj({
  anchor: req(int),
  found_newest: req(bool),
  found_oldest: req(bool),
  found_anchor: req(bool),
  history_limited: req(bool),
  messages: req(list(any)), // each checked with messageProblems
});
export const UpdateMessageFlagsResult = obj({ messages: req(list(int)) });
export const UpdateMessageFlagsForNarrowResult = obj({
  processed_count: req(int),
  updated_count: req(int),
  first_processed_id: opt(int),
  last_processed_id: opt(int),
  found_oldest: req(bool),
  found_newest: req(bool),
});
export const GetReadReceiptsResult = obj({ user_ids: req(list(int)) });
export const GetChannelTopicsResult = obj({ topics: req(list(obj({ max_id: req(int), name: req(str) }))) });
export const UploadFileResult = obj({ uri: req(str) });
export const UpdatePresenceResult = obj({
  presence_last_update_id: opt(int),
  server_timestamp: opt(num),
  presences: opt(intMap(PerUserPresence)),
});
export const ServerEmojiData = obj({ code_to_names: req(strMap(list(str))) });
export const GetEventsResult = obj({ events: req(list(any)), queue_id: opt(str) });

// ---- events.g.dart ----

const PerClientPresence = obj({
  client: req(str),
  status: req(oneOf("active", "idle")),
  timestamp: req(int),
  pushable: req(bool),
});

const messageType = oneOf("stream", "direct", "private"); // MessageTypeConverter reads "private" as direct

/** Event.fromJson's switch: the shape for each `type` (and `op`) the app parses. */
export const EVENTS: Readonly<Record<string, Shape>> = {
  "realm_emoji/update": obj({ id: req(int), realm_emoji: req(strMap(RealmEmojiItem)) }),
  "realm_emoji/add": obj({ id: req(int), emoji: req(RealmEmojiItem) }),
  alert_words: obj({ id: req(int), alert_words: req(list(str)) }),
  "user_settings/update": obj({ id: req(int), property: opt(str), value: opt(any) }),
  custom_profile_fields: obj({ id: req(int), fields: req(list(CustomProfileField)) }),
  "user_group/add": obj({ id: req(int), group: req(UserGroup) }),
  "user_group/update": obj({
    id: req(int),
    group_id: req(int),
    data: req(obj({ name: opt(str), description: opt(str), deactivated: opt(bool) })),
  }),
  "user_group/add_members": obj({ id: req(int), group_id: req(int), user_ids: req(list(int)) }),
  "user_group/remove_members": obj({ id: req(int), group_id: req(int), user_ids: req(list(int)) }),
  "user_group/remove": obj({ id: req(int), group_id: req(int) }),
  "realm_user/add": obj({ id: req(int), person: req(User) }),
  "realm_user/update": obj({
    id: req(int),
    person: req(
      obj({
        user_id: req(int),
        full_name: opt(str),
        avatar_url: opt(str),
        avatar_version: opt(int),
        timezone: opt(str),
        bot_owner_id: opt(int),
        role: opt(any),
        custom_profile_field: opt(obj({ id: req(int), value: opt(str), rendered_value: opt(str) })),
        new_email: opt(str),
        is_active: opt(bool),
      }),
    ),
  }),
  "stream/create": obj({ id: req(int), streams: req(list(ZulipStream)) }),
  "stream/delete": obj({ id: req(int), stream_ids: opt(list(int)), streams: opt(list(any)) }),
  "stream/update": obj({
    id: req(int),
    stream_id: req(int),
    name: req(str),
    property: opt(str),
    value: opt(any),
    rendered_description: opt(str),
    history_public_to_subscribers: opt(bool),
    is_web_public: opt(bool),
  }),
  "subscription/add": obj({ id: req(int), subscriptions: req(list(Subscription)) }),
  "subscription/remove": obj({ id: req(int), subscriptions: req(list(obj({ stream_id: req(int) }))) }),
  "subscription/update": obj({ id: req(int), stream_id: req(int), property: req(any), value: opt(any) }),
  "subscription/peer_add": obj({ id: req(int), stream_ids: req(list(int)), user_ids: req(list(int)) }),
  "subscription/peer_remove": obj({ id: req(int), stream_ids: req(list(int)), user_ids: req(list(int)) }),
  user_status: obj({
    id: req(int),
    user_id: req(int),
    status_text: opt(str),
    emoji_name: opt(str),
    emoji_code: opt(str),
    reaction_type: opt(str),
  }),
  user_topic: obj({
    id: req(int),
    stream_id: req(int),
    topic_name: req(str),
    last_updated: req(int),
    visibility_policy: req(oneOf(0, 1, 2, 3)),
  }),
  muted_users: obj({ id: req(int), muted_users: req(list(MutedUserItem)) }),
  message: obj({ id: req(int), message: req(any), flags: req(list(str)), local_message_id: opt(str) }),
  update_message: obj({
    id: req(int),
    user_id: opt(int),
    rendering_only: req(bool),
    message_id: req(int),
    message_ids: req(list(int)),
    flags: req(list(str)),
    edit_timestamp: req(int),
    stream_id: opt(int),
    new_stream_id: opt(int),
    orig_subject: opt(str),
    subject: opt(str),
    propagate_mode: opt(oneOf("change_one", "change_later", "change_all")),
    orig_content: opt(str),
    orig_rendered_content: opt(str),
    content: opt(str),
    rendered_content: opt(str),
    is_me_message: opt(bool),
  }),
  delete_message: obj({
    id: req(int),
    message_ids: req(list(int)),
    message_type: req(messageType),
    stream_id: opt(int),
    topic: opt(str),
  }),
  "update_message_flags/add": obj({
    id: req(int),
    flag: req(any),
    messages: req(list(int)),
    all: req(bool),
  }),
  "update_message_flags/remove": obj({
    id: req(int),
    flag: req(any),
    messages: req(list(int)),
    message_details: opt(
      intMap(
        obj({
          type: req(messageType),
          mentioned: opt(bool),
          user_ids: opt(list(int)),
          stream_id: opt(int),
          topic: opt(str),
        }),
      ),
    ),
  }),
  submessage: obj({
    id: req(int),
    msg_type: req(any),
    content: req(str),
    message_id: req(int),
    sender_id: req(int),
    submessage_id: req(int),
  }),
  typing: obj({
    id: req(int),
    op: req(oneOf("start", "stop")),
    message_type: req(messageType),
    sender: req(obj({ user_id: req(int) })),
    recipients: opt(list(obj({ user_id: req(int) }))),
    stream_id: opt(int),
    topic: opt(str),
  }),
  presence: obj({
    id: req(int),
    user_id: req(int),
    server_timestamp: req(int),
    presence: req(strMap(PerClientPresence)),
  }),
  reaction: obj({
    id: req(int),
    op: req(oneOf("add", "remove")),
    emoji_name: req(str),
    emoji_code: req(str),
    reaction_type: req(oneOf("unicode_emoji", "realm_emoji", "zulip_extra_emoji")),
    user_id: req(int),
    message_id: req(int),
  }),
  heartbeat: obj({ id: req(int) }),
};

/** Problems the app would have parsing one event (an event type it does not know is skipped). */
export function eventProblems(event: Record<string, unknown>): string[] {
  const type = event["type"];
  const op = event["op"];
  const key =
    typeof op === "string" && EVENTS[`${String(type)}/${op}`] ? `${String(type)}/${op}` : String(type);
  const shape = EVENTS[key];
  if (shape === undefined) return [];
  const path = `event ${key}`;
  const problems = shapeProblems(event, shape, path);
  if (type === "message" && problems.length === 0) {
    // MessageEvent._readMessageValue: the message with the event's flags.
    problems.push(
      ...messageProblems({ ...(event["message"] as object), flags: event["flags"] }, `${path}.message`),
    );
  }
  if (type === "typing" && problems.length === 0) {
    // TypingEvent.fromJson's "crunchy shell": stream typing has stream_id and topic, direct has recipients.
    const isStream = event["message_type"] === "stream";
    const missing = isStream ? ["stream_id", "topic"] : ["recipients"];
    for (const k of missing) if (event[k] == null) problems.push(`${path}.${k}: missing`);
  }
  return problems;
}
