import { avatarUrl } from "../../domain/users/avatar.js";
import type { BotWithServices } from "../../domain/users/user-service.js";
import { BotType, Role, isAdmin } from "../../domain/users/types.js";
import type { ProfileValue, User } from "../../domain/users/types.js";

/** ISO 8601 with an explicit offset, as Zulip writes date_joined. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

export interface UserPresentOptions {
  clientGravatar: boolean;
  profileData?: Map<number, ProfileValue> | undefined;
  /** For bots: the owner's email (bot_owner). */
  ownerEmail?: string | undefined;
  includeIsActive?: boolean;
}

/** A User object of GET /users `members` (the seed's User table). */
export function presentUser(user: User, opts: UserPresentOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: user.id,
    email: user.email,
    full_name: user.fullName,
    is_bot: user.isBot,
    is_admin: isAdmin(user),
    is_owner: user.role === Role.OWNER,
    is_guest: user.role === Role.GUEST,
    role: user.role,
    bot_type: user.botType,
    avatar_url: opts.clientGravatar ? null : avatarUrl(user.email),
    avatar_version: 1,
    timezone: user.timezone,
    date_joined: isoWithOffset(user.dateJoinedMs),
  };
  if (opts.includeIsActive !== false) out["is_active"] = user.isActive;
  if (user.isBot) {
    out["bot_owner_id"] = user.botOwnerId;
    if (opts.ownerEmail !== undefined) out["bot_owner"] = opts.ownerEmail;
  }
  if (opts.profileData !== undefined && !user.isBot) {
    const data: Record<string, unknown> = {};
    for (const [fieldId, v] of opts.profileData) {
      data[String(fieldId)] =
        v.renderedValue === null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue };
    }
    out["profile_data"] = data;
  }
  return out;
}

/** An element of GET /bots `bots`. */
export function presentBot({ bot, services }: BotWithServices): Record<string, unknown> {
  return {
    user_id: bot.id,
    username: bot.email,
    email: bot.email,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: bot.apiKey,
    avatar_url: avatarUrl(bot.email),
    default_sending_stream: bot.defaultSendingStream,
    default_events_register_stream: bot.defaultEventsRegisterStream,
    default_all_public_streams: bot.defaultAllPublicStreams,
    owner_id: bot.botOwnerId,
    services: services.map((s) =>
      bot.botType === BotType.EMBEDDED
        ? { service_name: s.name, config_data: {} }
        : { base_url: s.baseUrl, interface: s.interface, token: s.token },
    ),
  };
}
