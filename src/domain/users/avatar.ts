import crypto from "node:crypto";

/** Gravatar URL for an email, as Zulip computes it for users without an uploaded avatar. */
export function avatarUrl(email: string): string {
  const hash = crypto.createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;
}
