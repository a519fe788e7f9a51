import { UnauthorizedPrincipalError } from "../../errors.js";
import type { User } from "../users/types.js";
import type { UserDirectory } from "./ports.js";

/** Zulip's PrincipalError: an unknown or deactivated user among `principals` (403 before FL208). */
export class PrincipalError extends UnauthorizedPrincipalError {
  override readonly httpStatus = 403;
  constructor(principal: string | number) {
    super(`User not authorized to execute queries on behalf of '${principal}'`, principal);
  }
}

/** Emails or ids → active users; an unknown one is Zulip's PrincipalError. */
export async function resolvePrincipals(
  users: UserDirectory,
  principals: readonly (string | number)[],
): Promise<User[]> {
  const out = new Map<number, User>();
  for (const principal of principals) {
    const user = typeof principal === "number" ? await users.byId(principal) : await users.byEmail(principal);
    if (user === undefined || !user.isActive) throw new PrincipalError(principal);
    if (!out.has(user.id)) out.set(user.id, user);
  }
  return [...out.values()];
}
