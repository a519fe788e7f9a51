/**
 * The legacy `invite_to_realm_policy` numbers (before Zulip 10.0, feature level 321) and the
 * `can_invite_users_group` value each stands for (PATCH /realm still takes the old name).
 */
export const LEGACY_INVITE_POLICY_GROUPS: Readonly<Record<number, string>> = {
  1: "role:members",
  2: "role:administrators",
  3: "role:fullmembers",
  4: "role:moderators",
  6: "role:nobody",
};

/** Zulip's INVITATION_LINK_VALIDITY_MINUTES: ten days. */
export const DEFAULT_EXPIRY_MINUTES = 10 * 24 * 60;

export interface NewInvite {
  /** null: the link never expires. */
  expiresInMinutes: number | null;
  /** The role the new account gets (Role values). */
  inviteAs: number;
  /** One person (true) or any number until it expires or is revoked (false). */
  singleUse: boolean;
}

/** An invitation link as GET /invites lists it (Zulip's multiuse invite dict; times in seconds). */
export interface InviteInfo {
  id: number;
  invitedByUserId: number;
  invitedSeconds: number;
  expirySeconds: number | null;
  inviteAs: number;
  isMultiuse: boolean;
}

export interface Registration {
  email: string;
  fullName: string;
  password: string;
}
