import type { Queryable } from "./db.js";

/** The realm's group-based permission settings (migration 110): name → JSON value; absent = default. */
export class RealmGroupSettingsRepo {
  constructor(private readonly db: Queryable) {}

  async all(realmId: number): Promise<Map<string, string>> {
    const rows = await this.db.all<{ name: string; value: string }>(
      "SELECT name, value FROM realm_group_settings WHERE realm_id = ?",
      [realmId],
    );
    return new Map(rows.map((r) => [r.name, r.value]));
  }

  async set(realmId: number, name: string, value: string): Promise<void> {
    await this.db.run(
      `INSERT INTO realm_group_settings (realm_id, name, value) VALUES (?, ?, ?)
       ON CONFLICT (realm_id, name) DO UPDATE SET value = excluded.value`,
      [realmId, name, value],
    );
  }
}
