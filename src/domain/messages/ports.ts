import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { StreamAccess } from "../streams/access.js";
import type { UserService } from "../users/user-service.js";
import type { Linkifier } from "../markdown/linkifiers.js";
import type { MentionableGroup } from "../markdown/render.js";
import type { CustomEmojiSource } from "../markdown/emoji-custom.js";
import type { SentListener } from "./types.js";
import type { PermissionChecker } from "../user-groups/group-permissions.js";
import type { User } from "../users/types.js";

/** What the message use cases need of the streams area: lookups, access checks, first_message_id. */
export type StreamLookup = Pick<
  StreamAccess,
  | "byId"
  | "byName"
  | "byIds"
  | "canAccess"
  | "isSubscribed"
  | "subscriberIds"
  | "accessibleById"
  | "mutedTopicKeys"
  | "mutedStreamIds"
  | "noteMessageSent"
>;

/** What the message use cases need of the users area. */
export type UserLookup = Pick<UserService, "byId" | "byEmail" | "realm" | "notificationBot">;

/** What rendering needs of the user-groups area: the groups a message names, with members. */
export interface GroupMentions {
  mentionable(names: readonly string[]): Promise<MentionableGroup[]>;
  /** Throws when the sender may not mention one of the groups (their `can_mention_group`). */
  checkCanMention?(sender: User, groupIds: readonly number[]): Promise<void>;
}

/** What sending needs of the alert-words area: who of the recipients the content alerts. */
export interface AlertWordMatcher {
  usersAlerted(content: string, userIds: readonly number[]): Promise<Set<number>>;
}

/** What rendering needs of the linkifiers area. */
export interface LinkifierSource {
  forRendering(): Promise<Linkifier[]>;
}

/** Everything a message use case is given. */
export interface MessageDeps {
  store: RepoStore;
  users: UserLookup;
  streams: StreamLookup;
  events: EventSink;
  clock: Clock;
  logger: Logger;
  /** onSent listeners, called after each new message has committed. */
  listeners: SentListener[];
  /** Group-based permissions (src/domain/user-groups): who may post to a stream. */
  permissions?: PermissionChecker | undefined;
  /** User groups that `@*group*` mentions resolve to (src/domain/user-groups); none when absent. */
  groups?: GroupMentions | undefined;
  /** Users' alert words (src/domain/alert-words): `has_alert_word` flags; none when absent. */
  alertWords?: AlertWordMatcher | undefined;
  /** The realm's linkifiers (src/domain/linkifiers), applied by the renderer; none when absent. */
  linkifiers?: LinkifierSource | undefined;
  /** Custom emoji (src/domain/emoji) for `:name:` and `realm_emoji` reactions; none when absent. */
  customEmoji?: CustomEmojiSource | undefined;
  /** The image proxy's URL for a remote image (src/domain/camo); remote images become links when absent. */
  proxyImage?: ((url: string) => string) | undefined;
  /** Uploaded images a message links (src/domain/uploads): Zulip's preview markup for them; none when absent. */
  uploadedImages?: UploadedImageLookup | undefined;
  /** The realm's string id, once read (sender_realm_str). */
  realmStr?: string | undefined;
}

export function nowSeconds(deps: { clock: Clock }): number {
  return Math.floor(deps.clock.now() / 1000);
}

/** Of the `/user_uploads/` path ids a message links, the images a preview can show, with their size and type. */
export type UploadedImageLookup = (
  pathIds: readonly string[],
) => Promise<ReadonlyMap<string, { width: number; height: number; contentType: string }>>;
