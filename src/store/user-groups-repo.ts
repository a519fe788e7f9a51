import type { Queryable } from "./db.js";
import { placeholders } from "./db.js";

export interface UserGroupRow {
  id: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  creatorId: number | null;
  dateCreated: number | null;
  /** JSON of the group-setting value; null: the default. */
  canMentionGroup: string | null;
}

interface Row {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
  creator_id: number | null;
  date_created: number | null;
  can_mention_group: string | null;
}

const COLUMNS = "id, name, description, is_system_group, creator_id, date_created, can_mention_group";

const fromRow = (r: Row): UserGroupRow => ({
  id: Number(r.id),
  name: r.name,
  description: r.description,
  isSystemGroup: Number(r.is_system_group) !== 0,
  creatorId: r.creator_id === null ? null : Number(r.creator_id),
  dateCreated: r.date_created === null ? null : Number(r.date_created),
  canMentionGroup: r.can_mention_group ?? null,
});

/** The `user_groups` and `user_group_members` tables (migration 016), `user_group_subgroups` (024). */
export class UserGroupsRepo {
  constructor(private readonly db: Queryable) {}

  async all(): Promise<UserGroupRow[]> {
    return (await this.db.all<Row>(`SELECT ${COLUMNS} FROM user_groups ORDER BY id`)).map(fromRow);
  }

  async byId(id: number): Promise<UserGroupRow | undefined> {
    const row = await this.db.get<Row>(`SELECT ${COLUMNS} FROM user_groups WHERE id = ?`, [id]);
    return row === undefined ? undefined : fromRow(row);
  }

  async byName(name: string): Promise<UserGroupRow | undefined> {
    const row = await this.db.get<Row>(`SELECT ${COLUMNS} FROM user_groups WHERE LOWER(name) = LOWER(?)`, [
      name,
    ]);
    return row === undefined ? undefined : fromRow(row);
  }

  /** Non-system groups whose (case-insensitive) name is one of `names`. */
  async namedGroups(names: readonly string[]): Promise<UserGroupRow[]> {
    if (names.length === 0) return [];
    const lower = names.map((n) => n.toLowerCase());
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM user_groups WHERE is_system_group = 0 AND LOWER(name) IN (${placeholders(lower.length)})`,
      lower,
    );
    return rows.map(fromRow);
  }

  /** The new group, or undefined when a group of this name exists (written by a request at the same time). */
  async insert(g: Omit<UserGroupRow, "id" | "isSystemGroup">): Promise<UserGroupRow | undefined> {
    const row = await this.db.get<Row>(
      `INSERT INTO user_groups (name, description, is_system_group, creator_id, date_created, can_mention_group) VALUES (?, ?, 0, ?, ?, ?)
       ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`,
      [g.name, g.description, g.creatorId, g.dateCreated, g.canMentionGroup],
    );
    return row === undefined ? undefined : fromRow(row);
  }

  async update(
    id: number,
    change: { name?: string; description?: string; canMentionGroup?: string },
  ): Promise<void> {
    if (change.canMentionGroup !== undefined) {
      await this.db.run("UPDATE user_groups SET can_mention_group = ? WHERE id = ?", [
        change.canMentionGroup,
        id,
      ]);
    }
    if (change.name !== undefined)
      await this.db.run("UPDATE user_groups SET name = ? WHERE id = ?", [change.name, id]);
    if (change.description !== undefined) {
      await this.db.run("UPDATE user_groups SET description = ? WHERE id = ?", [change.description, id]);
    }
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM user_group_members WHERE group_id = ?", [id]);
    await this.db.run("DELETE FROM user_group_subgroups WHERE group_id = ? OR subgroup_id = ?", [id, id]);
    await this.db.run("DELETE FROM user_groups WHERE id = ?", [id]);
  }

  /** Direct members of every non-system group, by group id (ascending user ids). */
  async allMembers(): Promise<Map<number, number[]>> {
    const rows = await this.db.all<{ group_id: number; user_id: number }>(
      "SELECT group_id, user_id FROM user_group_members ORDER BY group_id, user_id",
    );
    const out = new Map<number, number[]>();
    for (const r of rows) {
      const list = out.get(Number(r.group_id)) ?? [];
      list.push(Number(r.user_id));
      out.set(Number(r.group_id), list);
    }
    return out;
  }

  async members(groupId: number): Promise<number[]> {
    const rows = await this.db.all<{ user_id: number }>(
      "SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id",
      [groupId],
    );
    return rows.map((r) => Number(r.user_id));
  }

  async addMembers(groupId: number, userIds: readonly number[]): Promise<void> {
    for (const id of userIds) {
      await this.db.run("INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)", [groupId, id]);
    }
  }

  async removeMembers(groupId: number, userIds: readonly number[]): Promise<void> {
    for (const id of userIds) {
      await this.db.run("DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?", [groupId, id]);
    }
  }

  /** Direct subgroups of every group that has stored ones, by group id (ascending ids). */
  async allSubgroups(): Promise<Map<number, number[]>> {
    const rows = await this.db.all<{ group_id: number; subgroup_id: number }>(
      "SELECT group_id, subgroup_id FROM user_group_subgroups ORDER BY group_id, subgroup_id",
    );
    const out = new Map<number, number[]>();
    for (const r of rows) {
      const list = out.get(Number(r.group_id)) ?? [];
      list.push(Number(r.subgroup_id));
      out.set(Number(r.group_id), list);
    }
    return out;
  }

  async addSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void> {
    for (const id of subgroupIds) {
      await this.db.run("INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)", [
        groupId,
        id,
      ]);
    }
  }

  async removeSubgroups(groupId: number, subgroupIds: readonly number[]): Promise<void> {
    for (const id of subgroupIds) {
      await this.db.run("DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id = ?", [
        groupId,
        id,
      ]);
    }
  }
}
