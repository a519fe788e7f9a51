import type { Queryable } from "./db.js";

/** Zulip's PushDeviceToken kinds. */
export const PushTokenKind = { APNS: 1, FCM: 2 } as const;
export type PushTokenKind = (typeof PushTokenKind)[keyof typeof PushTokenKind];

/** Mobile push tokens (migration 045). */
export class PushTokensRepo {
  constructor(private readonly db: Queryable) {}

  /** Adds the token, or refreshes its app id and time when the user already registered it. */
  async upsert(
    userId: number,
    kind: PushTokenKind,
    token: string,
    appId: string | null,
    now: number,
  ): Promise<void> {
    await this.db.run(
      `INSERT INTO push_device_tokens (user_id, kind, token, app_id, last_updated) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id, kind, token) DO UPDATE SET app_id = excluded.app_id, last_updated = excluded.last_updated`,
      [userId, kind, token, appId, now],
    );
  }

  /** Removes the token; false when the user had not registered it. */
  async remove(userId: number, kind: PushTokenKind, token: string): Promise<boolean> {
    const res = await this.db.run(
      "DELETE FROM push_device_tokens WHERE user_id = ? AND kind = ? AND token = ?",
      [userId, kind, token],
    );
    return res.changes > 0;
  }

  async tokens(userId: number): Promise<{ kind: number; token: string; appId: string | null }[]> {
    const rows = await this.db.all<{ kind: number; token: string; app_id: string | null }>(
      "SELECT kind, token, app_id FROM push_device_tokens WHERE user_id = ? ORDER BY kind, token",
      [userId],
    );
    return rows.map((r) => ({ kind: Number(r.kind), token: r.token, appId: r.app_id }));
  }
}
