import type { Queryable } from "./db.js";

/** One of a bot's signing secrets (migration 070). */
export interface SigningSecretRow {
  id: number;
  secret: string;
  createdAt: number;
  /** When an old secret stops being valid (ms); null for the current one. */
  retiresAt: number | null;
}

/** Bots' Standard Webhooks signing secrets. */
export class SigningSecretsRepo {
  constructor(private readonly db: Queryable) {}

  /** The bot's secrets still valid at `now`, newest first (the current one, then those in overlap). */
  async valid(botId: number, now: number): Promise<SigningSecretRow[]> {
    const rows = await this.db.all<{
      id: number;
      secret: string;
      created_at: number;
      retires_at: number | null;
    }>(
      `SELECT id, secret, created_at, retires_at FROM bot_signing_secrets
       WHERE bot_id = ? AND (retires_at IS NULL OR retires_at > ?) ORDER BY created_at DESC, id DESC`,
      [botId, now],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      secret: r.secret,
      createdAt: Number(r.created_at),
      retiresAt: r.retires_at === null ? null : Number(r.retires_at),
    }));
  }

  /** Adds a new current secret; the previous current ones retire at `retiresAt` (now: at once). */
  async rotate(botId: number, secret: string, now: number, retiresAt: number): Promise<void> {
    await this.db.run(
      "UPDATE bot_signing_secrets SET retires_at = ? WHERE bot_id = ? AND retires_at IS NULL",
      [retiresAt, botId],
    );
    await this.db.run(
      "INSERT INTO bot_signing_secrets (bot_id, secret, created_at, retires_at) VALUES (?, ?, ?, NULL)",
      [botId, secret, now],
    );
  }

  /** Ends the overlap: every old secret of the bot retires now. */
  async retireOld(botId: number, now: number): Promise<void> {
    await this.db.run(
      "UPDATE bot_signing_secrets SET retires_at = ? WHERE bot_id = ? AND retires_at IS NOT NULL AND retires_at > ?",
      [now, botId, now],
    );
  }
}
