import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import { streamOpEvent, streamUpdateEvent, subscriptionRemoveEvent } from "../../wire/events.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { peersOf, renderDescription } from "./shared.js";
import { checkStreamName } from "./stream-names.js";
import { MAX_STREAM_DESCRIPTION_LENGTH } from "./types.js";
import { STREAM_TOPICS_POLICIES } from "./types.js";
import type { Stream, StreamTopicsPolicy } from "./types.js";
import { PERMISSION_SETTINGS, STREAM_PERMISSION_NAMES, sameValue } from "../user-groups/group-settings.js";
import type {
  GroupSettingUpdate,
  GroupSettingValue,
  StreamPermissionName,
} from "../user-groups/group-settings.js";
import { SystemGroup } from "../user-groups/user-groups-service.js";
import { streamSetting } from "./permissions.js";

/** PATCH /streams/{id}'s arguments (undefined: unchanged). */
export interface StreamChanges {
  newName?: string | undefined;
  description?: string | undefined;
  isPrivate?: boolean | undefined;
  historyPublicToSubscribers?: boolean | undefined;
  /** 1 everyone, 2 administrators only (Zulip's stream_post_policy; 3 and 4 count as 1 here). */
  streamPostPolicy?: number | undefined;
  isAnnouncementOnly?: boolean | undefined;
  /** Group-based permission settings, as `{new, old}` updates. */
  groupSettings?: Partial<Record<StreamPermissionName, GroupSettingUpdate>> | undefined;
  /** The channel's own `topics_policy` (Zulip 11, feature levels 392/404). */
  topicsPolicy?: string | undefined;
  /** false: unarchive (Zulip 11, feature level 388); true: archive, as DELETE /streams/{id}. */
  isArchived?: boolean | undefined;
}

/** Zulip's Realm.STREAM_EVENTS_NOTIFICATION_TOPIC. */
export const STREAM_EVENTS_TOPIC = "stream events";

/**
 * Administrators may change and archive any stream, and so may the stream's own administrators
 * (`can_administer_channel_group`) a stream they can see; others get Zulip's error.
 */
async function managedStream(deps: StreamDeps, actor: User, streamId: number): Promise<Stream> {
  const stream = await deps.store.read.streams.byId(streamId);
  if (stream === undefined || stream.isArchived) throw new JsonableError("Invalid stream ID");
  if (!isAdmin(actor)) {
    // Nothing about a private stream leaks to those who cannot see it.
    if (!(await deps.access.canAccess(actor, stream))) throw new JsonableError("Invalid stream ID");
    const channelAdmin =
      deps.permissions !== undefined &&
      (await deps.permissions.hasPermission(actor, streamSetting(stream, "can_administer_channel_group")));
    if (!channelAdmin) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }
  return stream;
}

/** The group settings that change: each checked (`old`, then the new value), unchanged ones left out. */
async function changedGroupSettings(
  deps: StreamDeps,
  stream: Stream,
  updates: Partial<Record<StreamPermissionName, GroupSettingUpdate>>,
): Promise<Partial<Record<StreamPermissionName, GroupSettingValue>>> {
  const out: Partial<Record<StreamPermissionName, GroupSettingValue>> = {};
  const permissions = deps.permissions;
  for (const name of STREAM_PERMISSION_NAMES) {
    const update = updates[name];
    if (update === undefined) continue;
    if (permissions === undefined) throw new JsonableError(`Invalid parameter: ${name}`);
    const current = streamSetting(stream, name);
    permissions.checkExpected(update, current);
    const value = await permissions.checkSetting(PERMISSION_SETTINGS.stream[name], name, update.new);
    if (!sameValue(value, current)) out[name] = value;
  }
  return out;
}

/** Users who can see the stream (Zulip's can_access_stream_user_ids). */
async function viewers(deps: StreamDeps, stream: Stream): Promise<number[]> {
  const everyone = (await deps.users.allUsers()).filter((u) => u.isActive);
  return peersOf(stream, await deps.store.read.streams.subscriberIds(stream.id), everyone);
}

/**
 * PATCH /streams/{id}: rename, description, privacy, history visibility, who may post. One
 * `stream` update event per changed property, to everyone who can see the stream; the Notification
 * Bot notes a rename or a new description in the stream's "stream events" topic.
 */
export async function updateStream(
  deps: StreamDeps,
  actor: User,
  streamId: number,
  changes: StreamChanges,
): Promise<void> {
  if (changes.isArchived === false) await unarchiveStream(deps, actor, streamId);
  const stream = await managedStream(deps, actor, streamId);
  if (changes.isArchived === true) {
    await archiveStream(deps, actor, streamId);
    return;
  }
  const repo = deps.store.read.streams;
  let name: string | undefined;
  if (changes.newName !== undefined) {
    name = changes.newName.trim();
    checkStreamName(name);
    const other = await repo.byName(name);
    if (other !== undefined && other.id !== stream.id) {
      throw new JsonableError(`Stream name '${name}' is already taken.`);
    }
    if (name === stream.name) name = undefined;
  }
  let description: string | undefined;
  if (changes.description !== undefined) {
    description = changes.description.replace(/\n/g, " ");
    if ([...description].length > MAX_STREAM_DESCRIPTION_LENGTH) {
      throw new JsonableError(`description is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`);
    }
    if (description === stream.description) description = undefined;
  }
  let announcementOnly = changes.isAnnouncementOnly;
  if (changes.streamPostPolicy !== undefined) {
    if (![1, 2, 3, 4].includes(changes.streamPostPolicy))
      throw new JsonableError("Invalid stream_post_policy");
    announcementOnly = changes.streamPostPolicy === 2;
  }
  let topicsPolicy: StreamTopicsPolicy | undefined;
  if (changes.topicsPolicy !== undefined) {
    if (!(STREAM_TOPICS_POLICIES as readonly string[]).includes(changes.topicsPolicy)) {
      throw new JsonableError("Invalid topics_policy");
    }
    topicsPolicy = changes.topicsPolicy as StreamTopicsPolicy;
    if (topicsPolicy === stream.topicsPolicy) topicsPolicy = undefined;
  }
  const groupChanges = await changedGroupSettings(deps, stream, changes.groupSettings ?? {});
  const sendGroup = groupChanges.can_send_message_group;
  const groupSettings: Partial<Record<StreamPermissionName, GroupSettingValue | null>> = { ...groupChanges };
  if (sendGroup !== undefined) {
    // The legacy flag follows who may post: announcement-only means administrators only.
    announcementOnly = sendGroup === SystemGroup.ADMINISTRATORS;
  } else if (announcementOnly !== undefined && announcementOnly !== stream.isAnnouncementOnly) {
    // The legacy flag set: who may post follows it again (administrators, or everyone).
    groupSettings.can_send_message_group = null;
  }
  if (announcementOnly === stream.isAnnouncementOnly) announcementOnly = undefined;
  let inviteOnly = changes.isPrivate;
  if (inviteOnly === stream.inviteOnly) inviteOnly = undefined;
  let history = changes.historyPublicToSubscribers;
  const willBePrivate = inviteOnly ?? stream.inviteOnly;
  if (!willBePrivate) {
    // Public streams always share their history (Zulip's rule).
    if (history === false) throw new JsonableError("Invalid parameters");
    history = true;
  } else if (inviteOnly === true && history === undefined) {
    history = false;
  }
  if (history === stream.historyPublicToSubscribers) history = undefined;

  const before = await viewers(deps, stream);
  const updated = await deps.store.transaction(({ streams }) =>
    streams.update(stream.id, {
      name,
      description,
      renderedDescription: description === undefined ? undefined : renderDescription(description),
      inviteOnly,
      historyPublicToSubscribers: history,
      isAnnouncementOnly: announcementOnly,
      groupSettings,
      topicsPolicy,
    }),
  );
  const after = await viewers(deps, updated);
  const all = [...new Set([...before, ...after])].sort((a, b) => a - b);
  const send = (property: string, value: unknown, extra: Record<string, unknown> = {}) =>
    deps.events.send(streamUpdateEvent(updated, property, value, extra), all);
  if (name !== undefined) {
    deps.events.send(streamUpdateEvent(stream, "name", name), all);
  }
  if (description !== undefined) {
    send("description", description, { rendered_description: updated.renderedDescription });
  }
  if (inviteOnly !== undefined || history !== undefined) {
    send("invite_only", updated.inviteOnly, {
      history_public_to_subscribers: updated.historyPublicToSubscribers,
    });
    const [beforeSet, afterSet] = [new Set(before), new Set(after)];
    const lost = before.filter((id) => !afterSet.has(id));
    const gained = after.filter((id) => !beforeSet.has(id));
    if (lost.length > 0) deps.events.send(streamOpEvent("delete", [updated]), lost);
    if (gained.length > 0) deps.events.send(streamOpEvent("create", [updated]), gained);
  }
  if (announcementOnly !== undefined) {
    send("stream_post_policy", announcementOnly ? 2 : 1);
    send("is_announcement_only", announcementOnly);
  }
  if (topicsPolicy !== undefined) send("topics_policy", topicsPolicy);
  for (const name of STREAM_PERMISSION_NAMES) {
    const value = streamSetting(updated, name);
    if (groupSettings[name] !== undefined && !sameValue(value, streamSetting(stream, name)))
      send(name, value);
  }
  await notice(deps, actor, updated, {
    renamed: name === undefined ? undefined : { from: stream.name, to: name },
    description: description === undefined ? undefined : { from: stream.description, to: description },
  });
}

async function notice(
  deps: StreamDeps,
  actor: User,
  stream: Stream,
  what: {
    renamed?: { from: string; to: string } | undefined;
    description?: { from: string; to: string } | undefined;
  },
): Promise<void> {
  if (deps.notices === undefined) return;
  const bot = await deps.users.notificationBot();
  const who = `@_**${actor.fullName}|${actor.id}**`;
  const post = async (content: string) => {
    try {
      await deps.notices?.send(bot, { type: "stream", to: stream.name, topic: STREAM_EVENTS_TOPIC, content });
    } catch (err) {
      deps.logger.warn("could not post a stream notice", { stream_id: stream.id, error: err as Error });
    }
  };
  if (what.renamed !== undefined) {
    await post(`${who} renamed stream **${what.renamed.from}** to **${what.renamed.to}**.`);
  }
  if (what.description !== undefined) {
    const quote = (text: string) => (text === "" ? "*No description.*" : `\`\`\`\` quote\n${text}\n\`\`\`\``);
    await post(
      `${who} changed the description for this stream.\n\n* **Old description:**\n${quote(what.description.from)}\n* **New description:**\n${quote(what.description.to)}`,
    );
  }
}

/**
 * DELETE /streams/{id} (Zulip's do_deactivate_stream): the stream is archived, keeping its name
 * (taken until it is unarchived, as in Zulip 10) and its history, everyone is unsubscribed, and
 * those who could see it get a `stream` delete event (and subscribers a `subscription` remove).
 */
export async function archiveStream(deps: StreamDeps, actor: User, streamId: number): Promise<void> {
  const stream = await managedStream(deps, actor, streamId);
  const before = await viewers(deps, stream);
  const subscribers = await deps.store.transaction(async ({ streams, users }) => {
    const ids = await streams.unsubscribeAll(stream.id);
    await streams.update(stream.id, { deactivated: true, isDefault: false });
    const realm = await deps.users.realm();
    if (realm.notificationsStreamId === stream.id) await users.setRealmNotificationsStream(realm.id, null);
    if (realm.moderationRequestChannelId === stream.id) {
      await users.setRealmModerationRequestChannel(realm.id, null);
    }
    return ids;
  });
  for (const id of subscribers) deps.events.send(subscriptionRemoveEvent([stream]), [id]);
  deps.events.send(streamOpEvent("delete", [stream]), before);
}

/**
 * PATCH /streams/{id} `is_archived: false` (Zulip 11, feature level 388): an archived stream is
 * active again, under its name, without subscribers (archiving removed them); who can see it gets a
 * `stream` create event. Administrators, or the stream's `can_administer_channel_group`; a stream
 * that is not archived is left as it is.
 */
export async function unarchiveStream(deps: StreamDeps, actor: User, streamId: number): Promise<void> {
  const stream = await deps.store.read.streams.byId(streamId);
  if (stream === undefined) throw new JsonableError("Invalid stream ID");
  if (!stream.isArchived) return;
  if (!isAdmin(actor)) {
    if (!(await deps.access.canAccess(actor, stream))) throw new JsonableError("Invalid stream ID");
    const channelAdmin =
      deps.permissions !== undefined &&
      (await deps.permissions.hasPermission(actor, streamSetting(stream, "can_administer_channel_group")));
    if (!channelAdmin) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }
  const updated = await deps.store.transaction(({ streams }) =>
    streams.update(stream.id, { deactivated: false }),
  );
  deps.events.send(streamOpEvent("create", [updated]), await viewers(deps, updated));
}

/**
 * POST/DELETE /default_streams: administrators choose the streams new users join. Private streams
 * cannot be default. A `default_streams` event with the full list of ids goes to everyone.
 */
export async function setDefaultStream(
  deps: StreamDeps,
  actor: User,
  streamId: number,
  isDefault: boolean,
): Promise<void> {
  if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  const stream = await deps.store.read.streams.byId(streamId);
  if (stream === undefined || stream.isArchived) throw new JsonableError("Invalid stream ID");
  if (isDefault && stream.inviteOnly) throw new JsonableError("Private streams cannot be made default.");
  await deps.store.transaction(({ streams }) => streams.update(stream.id, { isDefault }));
  const everyone = await deps.users.activeUserIds();
  const defaults = (await deps.store.read.streams.all()).filter((s) => s.isDefault);
  // Channel ids since Zulip 10.0 (feature level 330).
  deps.events.send({ type: "default_streams", default_streams: defaults.map((s) => s.id) }, everyone);
}
