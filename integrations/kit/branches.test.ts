import { describe, expect, it } from "@jest/globals";
import { branchesOption, isBranchNotifiable } from "./branches.js";

describe("branch filtering (the `branches` option)", () => {
  it("parses a comma-separated list, trimming names and dropping empty ones", () => {
    expect(branchesOption.parse(" main, dev ,,release ")).toEqual(["main", "dev", "release"]);
  });

  it("posts pushes to listed branches only, and every branch when the list is absent or empty", () => {
    expect([
      isBranchNotifiable("main", ["main", "dev"]),
      isBranchNotifiable("feature", ["main", "dev"]),
      isBranchNotifiable("mai", ["main"]),
      isBranchNotifiable("feature", undefined),
      isBranchNotifiable("feature", []),
    ]).toEqual([true, false, false, true, true]);
  });
});
