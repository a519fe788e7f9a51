import type { Clock } from "../../clock.js";
import { BadRequestError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import { checkEmoji, emojiByName } from "../messages/reaction-emoji.js";
import type { User } from "../users/types.js";
import type { UserStatusRepo, UserStatusRow } from "../../store/user-status-repo.js";

/** Zulip's limit on a status text. */
export const MAX_STATUS_TEXT_LENGTH = 60;

/** POST /users/me/status arguments; undefined = unchanged. */
export interface StatusChange {
  away?: boolean | undefined;
  statusText?: string | undefined;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

/** A user's status as register and GET answer it: only the fields that are set. */
export function userStatusWire(s: UserStatusRow): Record<string, unknown> {
  return {
    ...(s.away ? { away: true } : {}),
    ...(s.statusText !== "" ? { status_text: s.statusText } : {}),
    ...(s.emojiName !== ""
      ? { emoji_name: s.emojiName, emoji_code: s.emojiCode, reaction_type: s.reactionType }
      : {}),
  };
}

/** User status (POST /users/me/status, register's `user_status`, `user_status` events). */
export class UserStatusService {
  constructor(
    private readonly repo: UserStatusRepo,
    private readonly events: EventSink,
    private readonly clock: Clock,
    private readonly realmUserIds: () => Promise<number[]>,
  ) {}

  /** Every status set in the realm, keyed by user id (register's `user_status`). */
  async all(): Promise<Record<string, Record<string, unknown>>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const s of await this.repo.all()) out[String(s.userId)] = userStatusWire(s);
    return out;
  }

  async update(user: User, change: StatusChange): Promise<void> {
    const { away, statusText, emojiName, emojiCode, reactionType } = change;
    if (
      away === undefined &&
      statusText === undefined &&
      emojiName === undefined &&
      emojiCode === undefined &&
      reactionType === undefined
    ) {
      throw new BadRequestError("Client did not pass any new values.");
    }
    const text = statusText?.trim();
    if (text !== undefined && [...text].length > MAX_STATUS_TEXT_LENGTH) {
      throw new BadRequestError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters).`);
    }
    const before = (await this.repo.of(user.id)) ?? {
      userId: user.id,
      statusText: "",
      emojiName: "",
      emojiCode: "",
      reactionType: "unicode_emoji",
      away: false,
    };
    const next: UserStatusRow = { ...before };
    if (away !== undefined) next.away = away;
    if (text !== undefined) next.statusText = text;
    const emojiEvent: Record<string, unknown> = {};
    if (emojiName !== undefined) {
      if (emojiName === "") {
        next.emojiName = "";
        next.emojiCode = "";
        next.reactionType = "unicode_emoji";
      } else {
        const byName = emojiByName(emojiName);
        const code = emojiCode ?? byName.emojiCode;
        const type = checkEmoji(emojiName, code, reactionType ?? byName.reactionType);
        next.emojiName = emojiName;
        next.emojiCode = code;
        next.reactionType = type;
      }
      emojiEvent["emoji_name"] = next.emojiName;
      emojiEvent["emoji_code"] = next.emojiCode;
      emojiEvent["reaction_type"] = next.reactionType;
    } else if (emojiCode !== undefined || reactionType !== undefined) {
      throw new BadRequestError(
        "Client must pass emoji_name if they pass either emoji_code or reaction_type.",
      );
    }
    await this.repo.save(next, Math.floor(this.clock.now() / 1000));
    this.events.send(
      {
        type: "user_status",
        user_id: user.id,
        ...(away !== undefined ? { away } : {}),
        ...(text !== undefined ? { status_text: text } : {}),
        ...emojiEvent,
      },
      await this.realmUserIds(),
    );
  }
}
