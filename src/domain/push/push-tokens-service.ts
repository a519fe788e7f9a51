import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import { PushTokenKind } from "../../store/push-tokens-repo.js";
import type { PushTokensRepo } from "../../store/push-tokens-repo.js";
import type { User } from "../users/types.js";

/** Zulip's limit on a push token's length. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * The mobile apps' push-token registrations (Zulip's add/remove_apns_device_token and
 * add/remove_android_reg_id), with Zulip's checks and texts. Tokens are stored and nothing is
 * sent: the official apps' notifications go through Zulip's push service, which holds their keys
 * (docs/compat.md); register and server_settings say `push_notifications_enabled: false`.
 */
export class PushTokensService {
  constructor(
    private readonly repo: PushTokensRepo,
    private readonly clock: Clock,
  ) {}

  async add(user: User, kind: "apns" | "fcm", token: string, appId?: string): Promise<void> {
    checkToken(kind, token);
    if (kind === "apns") {
      if (appId === undefined) throw new JsonableError("Missing 'appid' argument");
      if (!/^[.a-zA-Z0-9-]+$/.test(appId)) throw new JsonableError("Invalid app ID");
    }
    await this.repo.upsert(user.id, kindOf(kind), token, appId ?? null, Math.floor(this.clock.now() / 1000));
  }

  async remove(user: User, kind: "apns" | "fcm", token: string): Promise<void> {
    checkToken(kind, token);
    if (!(await this.repo.remove(user.id, kindOf(kind), token)))
      throw new JsonableError("Token does not exist");
  }
}

function kindOf(kind: "apns" | "fcm"): PushTokenKind {
  return kind === "apns" ? PushTokenKind.APNS : PushTokenKind.FCM;
}

function checkToken(kind: "apns" | "fcm", token: string): void {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
    throw new JsonableError("Empty or invalid length token");
  }
  if (kind === "apns" && !/^[0-9a-fA-F]+$/.test(token)) throw new JsonableError("Invalid APNS token");
}
