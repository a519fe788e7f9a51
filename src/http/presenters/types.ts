import type { User } from "../../domain/users/types.js";
import type { Services } from "../../services.js";

/** The services POST /register's state providers read. */
export type StateServices = Pick<
  Services,
  | "config"
  | "customEmoji"
  | "drafts"
  | "groupPermissions"
  | "linkifiers"
  | "maxMessageId"
  | "messages"
  | "personalLists"
  | "presence"
  | "reminders"
  | "savedSnippets"
  | "scheduledMessages"
  | "settings"
  | "streams"
  | "userGroups"
  | "userState"
  | "userStatus"
  | "users"
  | "webhooks"
>;

/** What a state provider of POST /register is given (register.ts builds it once per request). */
export interface StateContext {
  services: StateServices;
  user: User;
  clientGravatar: boolean;
  applyMarkdown: boolean;
  includeSubscribers: boolean;
  /** Presence keyed by user id (`slim_presence`) instead of email. */
  slimPresence: boolean;
  capabilities: Readonly<Record<string, unknown>>;
  /** The requested fetch types (null = everything). */
  fetchEventTypes: readonly string[] | null;
  want: (eventType: string) => boolean;
  /** Every user of the realm (memoized for the request). */
  allUsers: () => Promise<User[]>;
}

export interface StateProvider {
  /** Runs when any of these is wanted (or, with requireAll, when every one is). */
  eventTypes: readonly string[];
  requireAll?: boolean;
  fetch(ctx: StateContext): Promise<Record<string, unknown>>;
}
