import { Role } from "../../src/domain/users/types.js";
import type { User } from "../../src/domain/users/types.js";

/** A user record for tests that need no store: member `id` of realm 1, `extra` overriding. */
export function userRecord(id: number, extra: Partial<User> = {}): User {
  return {
    id,
    realmId: 1,
    email: `user${id}@zulip.com`,
    fullName: `User ${id}`,
    shortName: `user${id}`,
    apiKey: "k".repeat(32),
    role: Role.MEMBER,
    isActive: true,
    isBot: false,
    botType: null,
    botOwnerId: null,
    timezone: "",
    dateJoinedMs: 0,
    defaultSendingStream: null,
    defaultEventsRegisterStream: null,
    defaultAllPublicStreams: false,
    ...extra,
  };
}
