import type { Queryable } from "./db.js";
import { constantTimeEqual } from "../lib/constant-time.js";

/** Which credential a rotation replaced: the bot's API key, or a bot service's outgoing token. */
export type OldCredentialKind = "api_key" | "token";

/** One old credential still valid (migration 100). Times in ms. */
export interface OldCredentialRow {
  id: number;
  kind: OldCredentialKind;
  /** The bot service of an old token; null for an API key. */
  serviceId: number | null;
  /** An old token itself; null for an API key (only its lookup id is kept). */
  token: string | null;
  /** When the rotation replaced it. */
  createdAt: number;
  /** When it stops being valid; null: until the owner retires it. */
  retiresAt: number | null;
}

interface Row {
  id: number | string;
  kind: string;
  service_id: number | string | null;
  token: string | null;
  created_at: number | string;
  retires_at: number | string | null;
}

function toRow(r: Row): OldCredentialRow {
  return {
    id: Number(r.id),
    kind: r.kind as OldCredentialKind,
    serviceId: r.service_id === null ? null : Number(r.service_id),
    token: r.token,
    createdAt: Number(r.created_at),
    retiresAt: r.retires_at === null ? null : Number(r.retires_at),
  };
}

const VALID = "(retires_at IS NULL OR retires_at > ?)";

/** Bots' old API keys and outgoing tokens during a rotation's overlap (table `bot_old_credentials`). */
export class BotCredentialsRepo {
  constructor(private readonly db: Queryable) {}

  /** The bot's old credentials of a kind still valid at `now`, newest first. */
  async valid(botId: number, kind: OldCredentialKind, now: number): Promise<OldCredentialRow[]> {
    const rows = await this.db.all<Row>(
      `SELECT id, kind, service_id, token, created_at, retires_at FROM bot_old_credentials
       WHERE bot_id = ? AND kind = ? AND ${VALID} ORDER BY created_at DESC, id DESC`,
      [botId, kind, now],
    );
    return rows.map(toRow);
  }

  /** Keeps a replaced API key's lookup id (SHA-256 hex) valid until `retiresAt` (null: until retired). */
  async addOldApiKey(botId: number, keyHash: string, now: number, retiresAt: number | null): Promise<void> {
    await this.db.run(
      "INSERT INTO bot_old_credentials (bot_id, kind, service_id, key_hash, token, created_at, retires_at) VALUES (?, 'api_key', NULL, ?, NULL, ?, ?)",
      [botId, keyHash, now, retiresAt],
    );
  }

  /** Keeps a bot service's replaced token valid until `retiresAt` (null: until retired). */
  async addOldToken(
    botId: number,
    serviceId: number,
    token: string,
    now: number,
    retiresAt: number | null,
  ): Promise<void> {
    await this.db.run(
      "INSERT INTO bot_old_credentials (bot_id, kind, service_id, key_hash, token, created_at, retires_at) VALUES (?, 'token', ?, NULL, ?, ?, ?)",
      [botId, serviceId, token, now, retiresAt],
    );
  }

  /**
   * The bot whose old API key, still valid at `now`, has this lookup id. Found through the index on
   * the non-secret lookup id, then compared in constant time (as `users.api_key_hash` is).
   */
  async botOfOldApiKey(keyHash: string, now: number): Promise<number | undefined> {
    const rows = await this.db.all<{ bot_id: number | string; key_hash: string }>(
      `SELECT bot_id, key_hash FROM bot_old_credentials WHERE key_hash = ? AND kind = 'api_key' AND ${VALID}`,
      [keyHash, now],
    );
    const row = rows.find((r) => constantTimeEqual(r.key_hash, keyHash));
    return row === undefined ? undefined : Number(row.bot_id);
  }

  /** Ends the overlap of a kind now: every old credential of that kind of the bot retires. */
  async retireOld(botId: number, kind: OldCredentialKind, now: number): Promise<void> {
    await this.db.run(
      `UPDATE bot_old_credentials SET retires_at = ? WHERE bot_id = ? AND kind = ? AND ${VALID}`,
      [now, botId, kind, now],
    );
  }
}
