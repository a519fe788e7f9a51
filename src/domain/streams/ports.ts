import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { UserService } from "../users/user-service.js";
import type { User } from "../users/types.js";
import type { PermissionChecker } from "../user-groups/group-permissions.js";
import type { StreamAccess } from "./access.js";

/** What the stream use cases need of the users area. */
export type UserDirectory = Pick<
  UserService,
  "byId" | "byEmail" | "realm" | "allUsers" | "activeUserIds" | "notificationBot"
>;

/** Posts the announcements and Notification Bot notices of stream changes (the messages area). */
export interface NoticeSender {
  send(
    sender: User,
    message: { type: "stream" | "private"; to: string | string[]; topic?: string; content: string },
  ): Promise<number>;
}

/** Everything a stream use case is given: repositories, events, time, users, access checks, notices. */
export interface StreamDeps {
  store: RepoStore;
  events: EventSink;
  clock: Clock;
  users: UserDirectory;
  access: StreamAccess;
  /** undefined → no announcement or notices are posted. */
  notices: NoticeSender | undefined;
  logger: Logger;
  /** Group-based permissions (src/domain/user-groups); undefined → the role rules alone. */
  permissions?: PermissionChecker | undefined;
}

export function nowSeconds(deps: { clock: Clock }): number {
  return Math.floor(deps.clock.now() / 1000);
}
