import { describe, expect, it } from "@jest/globals";
import {
  groupAndSubgroups,
  recursiveMembers,
  recursiveSubgroups,
} from "../../src/domain/user-groups/membership.js";
import type { GroupNode } from "../../src/domain/user-groups/membership.js";

const graph = (nodes: GroupNode[]) => new Map(nodes.map((n) => [n.id, n]));

describe("membership through subgroups", () => {
  // 1 ⊃ {2, 3}, 2 ⊃ {4}, 3 ⊃ {4}: 4 is reached twice.
  const diamond = graph([
    { id: 1, members: [10], directSubgroupIds: [2, 3] },
    { id: 2, members: [20, 10], directSubgroupIds: [4] },
    { id: 3, members: [30], directSubgroupIds: [4] },
    { id: 4, members: [40], directSubgroupIds: [] },
  ]);

  it("collects members of every subgroup once, ascending", () => {
    expect(recursiveMembers(diamond, 1)).toEqual([10, 20, 30, 40]);
    expect(recursiveMembers(diamond, 3)).toEqual([30, 40]);
    expect(recursiveSubgroups(diamond, 1)).toEqual([2, 3, 4]);
    expect(recursiveSubgroups(diamond, 4)).toEqual([]);
  });

  it("stops at a group already seen (a cycle never loops)", () => {
    const cycle = graph([
      { id: 1, members: [1], directSubgroupIds: [2] },
      { id: 2, members: [2], directSubgroupIds: [1] },
    ]);
    expect(groupAndSubgroups(cycle, 1)).toEqual([1, 2]);
    expect(recursiveMembers(cycle, 2)).toEqual([1, 2]);
  });
});
