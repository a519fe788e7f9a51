import type { Queryable } from "./db.js";

export interface SessionRow {
  idHash: string;
  userId: number;
  csrfToken: string;
  createdMs: number;
  expiresMs: number;
}

interface Row {
  id_hash: string;
  user_id: number | string;
  csrf_token: string;
  created_ms: number | string;
  expires_ms: number | string;
}

/** The `web_sessions` table (migration 008). */
export class SessionsRepo {
  constructor(private readonly db: Queryable) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.run(
      "INSERT INTO web_sessions (id_hash, user_id, csrf_token, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?)",
      [row.idHash, row.userId, row.csrfToken, row.createdMs, row.expiresMs],
    );
  }

  async byIdHash(idHash: string): Promise<SessionRow | undefined> {
    const r = await this.db.get<Row>(
      "SELECT id_hash, user_id, csrf_token, created_ms, expires_ms FROM web_sessions WHERE id_hash = ?",
      [idHash],
    );
    if (r === undefined) return undefined;
    return {
      idHash: r.id_hash,
      userId: Number(r.user_id),
      csrfToken: r.csrf_token,
      createdMs: Number(r.created_ms),
      expiresMs: Number(r.expires_ms),
    };
  }

  async delete(idHash: string): Promise<void> {
    await this.db.run("DELETE FROM web_sessions WHERE id_hash = ?", [idHash]);
  }

  async deleteExpired(nowMs: number): Promise<number> {
    return (await this.db.run("DELETE FROM web_sessions WHERE expires_ms <= ?", [nowMs])).changes;
  }
}
