/** Who may make invitation links: Zulip's `invite_to_realm_policy` values. */
export const InvitePolicy = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, NOBODY: 6 } as const;
export type InvitePolicyValue = (typeof InvitePolicy)[keyof typeof InvitePolicy];

/** New realms: only administrators invite (as `can_invite_others_to_realm` said before links existed). */
export const DEFAULT_INVITE_POLICY: InvitePolicyValue = InvitePolicy.ADMINS;

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
