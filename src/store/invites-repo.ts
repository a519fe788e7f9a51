import type { Queryable } from "./db.js";

/** A stored invitation link (migration 060). Times in ms. */
export interface InviteRow {
  id: number;
  realmId: number;
  referrerId: number;
  inviteAs: number;
  createdAt: number;
  expiresAt: number | null;
  /** 1: single-use; null: any number of people. */
  maxUses: number | null;
  uses: number;
  revoked: boolean;
}

interface Row {
  id: number;
  realm_id: number;
  referrer_id: number;
  invite_as: number;
  created_at: number;
  expires_at: number | null;
  max_uses: number | null;
  uses: number;
  revoked: number;
}

const COLUMNS = "id, realm_id, referrer_id, invite_as, created_at, expires_at, max_uses, uses, revoked";

const fromRow = (r: Row): InviteRow => ({
  id: Number(r.id),
  realmId: Number(r.realm_id),
  referrerId: Number(r.referrer_id),
  inviteAs: Number(r.invite_as),
  createdAt: Number(r.created_at),
  expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  maxUses: r.max_uses === null ? null : Number(r.max_uses),
  uses: Number(r.uses),
  revoked: Number(r.revoked) !== 0,
});

/** The `invites` table. */
export class InvitesRepo {
  constructor(private readonly db: Queryable) {}

  async insert(row: Omit<InviteRow, "id" | "uses" | "revoked"> & { keyHash: string }): Promise<InviteRow> {
    const r = await this.db.get<Row>(
      `INSERT INTO invites (realm_id, referrer_id, key_hash, invite_as, created_at, expires_at, max_uses)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      [row.realmId, row.referrerId, row.keyHash, row.inviteAs, row.createdAt, row.expiresAt, row.maxUses],
    );
    return fromRow(r!);
  }

  async byId(realmId: number, id: number): Promise<InviteRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM invites WHERE realm_id = ? AND id = ?`, [
      realmId,
      id,
    ]);
    return r === undefined ? undefined : fromRow(r);
  }

  async byKeyHash(keyHash: string): Promise<InviteRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM invites WHERE key_hash = ?`, [keyHash]);
    return r === undefined ? undefined : fromRow(r);
  }

  /** Links still usable at `now`, oldest first; of one referrer when given. */
  async usable(realmId: number, now: number, referrerId?: number): Promise<InviteRow[]> {
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM invites
       WHERE realm_id = ? AND revoked = 0 AND (expires_at IS NULL OR expires_at > ?)
         AND (max_uses IS NULL OR uses < max_uses)${referrerId === undefined ? "" : " AND referrer_id = ?"}
       ORDER BY created_at, id`,
      referrerId === undefined ? [realmId, now] : [realmId, now, referrerId],
    );
    return rows.map(fromRow);
  }

  /** Takes one use of a link if it is still usable at `now` (false: it is not, or was just used up). */
  async claim(id: number, now: number): Promise<boolean> {
    const res = await this.db.run(
      `UPDATE invites SET uses = uses + 1
       WHERE id = ? AND revoked = 0 AND (expires_at IS NULL OR expires_at > ?) AND (max_uses IS NULL OR uses < max_uses)`,
      [id, now],
    );
    return res.changes === 1;
  }

  /** Gives a use back (the account could not be created after all). */
  async release(id: number): Promise<void> {
    await this.db.run("UPDATE invites SET uses = uses - 1 WHERE id = ? AND uses > 0", [id]);
  }

  async revoke(id: number): Promise<void> {
    await this.db.run("UPDATE invites SET revoked = 1 WHERE id = ?", [id]);
  }
}
