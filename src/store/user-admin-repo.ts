import type { Queryable } from "./db.js";

/** Writes of user administration (PATCH /users/{id}, PATCH /settings) not done elsewhere. */
export class UserAdminRepo {
  constructor(private readonly db: Queryable) {}

  async setFullName(userId: number, fullName: string): Promise<void> {
    await this.db.run("UPDATE users SET full_name = ? WHERE id = ?", [fullName, userId]);
  }

  async setRole(userId: number, role: number): Promise<void> {
    await this.db.run("UPDATE users SET role = ? WHERE id = ?", [role, userId]);
  }

  /** Active human owners of the realm. */
  async activeOwnerIds(): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>(
      "SELECT id FROM users WHERE role = 100 AND is_active = 1 AND is_bot = 0 ORDER BY id",
    );
    return rows.map((r) => Number(r.id));
  }
}
