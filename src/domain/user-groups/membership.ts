/**
 * Membership through subgroups (pure): a group's members are its direct members and, recursively,
 * its subgroups' members. The graph has no cycles (adding a subgroup that would close one is
 * refused), but the walks below also stop at a group already seen.
 */

export interface GroupNode {
  id: number;
  members: readonly number[];
  directSubgroupIds: readonly number[];
}

/** Ids of `groupId` and every group below it (Zulip's get_recursive_subgroups), without repeats. */
export function groupAndSubgroups(byId: ReadonlyMap<number, GroupNode>, groupId: number): number[] {
  const seen = new Set<number>();
  const visit = (id: number): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const sub of byId.get(id)?.directSubgroupIds ?? []) visit(sub);
  };
  visit(groupId);
  return [...seen];
}

/** Every member of the group and of its subgroups, ascending. */
export function recursiveMembers(byId: ReadonlyMap<number, GroupNode>, groupId: number): number[] {
  const out = new Set<number>();
  for (const id of groupAndSubgroups(byId, groupId)) for (const m of byId.get(id)?.members ?? []) out.add(m);
  return [...out].sort((a, b) => a - b);
}

/** The subgroups of the group, recursively, without the group itself, ascending. */
export function recursiveSubgroups(byId: ReadonlyMap<number, GroupNode>, groupId: number): number[] {
  return groupAndSubgroups(byId, groupId)
    .filter((id) => id !== groupId)
    .sort((a, b) => a - b);
}
