/** Writes of the bot lifecycle (PATCH /bots/{id}): name, owner, default streams, services. */
import type { Queryable } from "./db.js";
import { sqlBool } from "./db.js";

export class BotsRepo {
  constructor(private readonly db: Queryable) {}

  async setFullName(botId: number, fullName: string): Promise<void> {
    await this.db.run("UPDATE users SET full_name = ? WHERE id = ?", [fullName, botId]);
  }

  async setOwner(botId: number, ownerId: number): Promise<void> {
    await this.db.run("UPDATE users SET bot_owner_id = ? WHERE id = ?", [ownerId, botId]);
  }

  async setDefaultSendingStream(botId: number, stream: string | null): Promise<void> {
    await this.db.run("UPDATE users SET default_sending_stream = ? WHERE id = ?", [stream, botId]);
  }

  async setDefaultEventsRegisterStream(botId: number, stream: string | null): Promise<void> {
    await this.db.run("UPDATE users SET default_events_register_stream = ? WHERE id = ?", [stream, botId]);
  }

  async setDefaultAllPublicStreams(botId: number, value: boolean): Promise<void> {
    await this.db.run("UPDATE users SET default_all_public_streams = ? WHERE id = ?", [
      sqlBool(value),
      botId,
    ]);
  }

  /** Points every service of the bot (an outgoing-webhook bot has one) at a new URL and/or interface. */
  async updateServices(botId: number, change: { baseUrl?: string; interface?: number }): Promise<void> {
    if (change.baseUrl !== undefined) {
      await this.db.run("UPDATE bot_services SET base_url = ? WHERE bot_id = ?", [change.baseUrl, botId]);
    }
    if (change.interface !== undefined) {
      await this.db.run("UPDATE bot_services SET interface = ? WHERE bot_id = ?", [change.interface, botId]);
    }
  }

  /** Gives every service of the bot (an outgoing-webhook bot has one) a new outgoing token. */
  async setServiceToken(botId: number, token: string): Promise<void> {
    await this.db.run("UPDATE bot_services SET token = ? WHERE bot_id = ?", [token, botId]);
  }
}
