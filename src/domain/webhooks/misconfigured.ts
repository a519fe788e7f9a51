import type { User } from "../users/types.js";

/** Whom a notice tells the owner to contact (Zulip names its support address). */
const SUPPORT_CONTACT = "the server administrator";

/**
 * The owner notice of a WebhookMisconfiguredError: its text (Zulip's templates, trimmed) with
 * `{bot_name}` and `{support_email}` filled in.
 */
export function misconfiguredNotice(template: string, bot: Pick<User, "fullName">): string {
  return template
    .trim()
    .replaceAll("{bot_name}", bot.fullName)
    .replaceAll("{support_email}", SUPPORT_CONTACT);
}
