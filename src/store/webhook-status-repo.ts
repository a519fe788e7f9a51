import type { Queryable } from "./db.js";

/** The `webhook_status_messages` table (migration 105): status messages of incoming-webhook bots. */
export class WebhookStatusRepo {
  constructor(private readonly db: Queryable) {}

  /** Whether `botId` posted `messageId` as a status message of `object`. */
  async has(botId: number, messageId: number, object: string): Promise<boolean> {
    const row = await this.db.get<{ n: number }>(
      "SELECT 1 AS n FROM webhook_status_messages WHERE message_id = ? AND bot_id = ? AND object = ?",
      [messageId, botId, object],
    );
    return row !== undefined;
  }

  /** Records `messageId` as a status message of `botId` about `object`, posted at `nowMs`. */
  async add(botId: number, messageId: number, object: string, nowMs: number): Promise<void> {
    await this.db.run(
      `INSERT INTO webhook_status_messages (message_id, bot_id, object, posted_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (message_id) DO NOTHING`,
      [messageId, botId, object, nowMs],
    );
  }

  /** Forgets the status messages posted before `ms`; returns how many. */
  async deleteBefore(ms: number): Promise<number> {
    return (await this.db.run("DELETE FROM webhook_status_messages WHERE posted_at < ?", [ms])).changes;
  }
}
