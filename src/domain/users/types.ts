/** Zulip's roles: lower is more powerful. */
export const Role = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

/** Bot types as the API numbers them. */
export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
export type BotTypeValue = (typeof BotType)[keyof typeof BotType];

export interface User {
  id: number;
  realmId: number;
  email: string;
  fullName: string;
  shortName: string;
  apiKey: string;
  role: RoleValue;
  isActive: boolean;
  isBot: boolean;
  botType: BotTypeValue | null;
  botOwnerId: number | null;
  timezone: string;
  dateJoinedMs: number;
  defaultSendingStream: string | null;
  defaultEventsRegisterStream: string | null;
  defaultAllPublicStreams: boolean;
}

export function isAdmin(user: User): boolean {
  return user.role <= Role.ADMIN;
}

export function isGuest(user: User): boolean {
  return user.role === Role.GUEST;
}

/** Zulip's realm `topics_policy` values ("empty_topic_only" is a channel's only). */
export const REALM_TOPICS_POLICIES = ["allow_empty_topic", "disable_empty_topic"] as const;
export type RealmTopicsPolicy = (typeof REALM_TOPICS_POLICIES)[number];

export interface Realm {
  id: number;
  stringId: string;
  name: string;
  description: string;
  notificationsStreamId: number | null;
  /** Where message reports go (Zulip 11, feature level 382); null: reporting is off. */
  moderationRequestChannelId: number | null;
  /** Whether channel messages may have an empty topic (Zulip 11, feature level 392). */
  topicsPolicy: RealmTopicsPolicy;
  dateCreated: number;
}

export interface CustomProfileField {
  id: number;
  name: string;
  hint: string;
  fieldType: number;
  fieldData: string;
  order: number;
}

/** Custom profile field types (Zulip's numbering). */
export const ProfileFieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export interface ProfileValue {
  value: string;
  renderedValue: string | null;
}

export interface BotService {
  id: number;
  botId: number;
  name: string;
  baseUrl: string;
  /** 1 generic (Zulip format), 2 Slack-compatible. */
  interface: number;
  token: string;
}
