import { describe, expect, it } from "@jest/globals";
import {
  allCommitters,
  commitsContent,
  pullRequestEventMessage,
  pushCommitsMessage,
  pushTagMessage,
  releaseEventMessage,
  truncateTopic,
} from "./git.js";
import type { CommitData } from "./git.js";

const commit = (name: string, n: number): CommitData => ({
  name,
  sha: `${n}`.repeat(40).slice(0, 40),
  url: `https://example.com/c/${n}`,
  message: `Commit ${n}\n\nbody`,
});

describe("git templates", () => {
  it("groups committers beyond three as others, most commits first then by name", () => {
    const commits = [
      commit("b", 1),
      commit("a", 2),
      commit("a", 3),
      commit("c", 4),
      commit("d", 5),
      commit("e", 6),
    ];
    expect(allCommitters(commits)).toEqual([
      ["a", 2],
      ["b", 1],
      ["c", 1],
      ["others", 2],
    ]);
  });

  it("says more commits exist without a count when the service truncated the list", () => {
    expect(commitsContent([commit("a", 1)], true)).toBe(
      "* Commit 1 ([11111111111](https://example.com/c/1))\n[and more commit(s)]",
    );
  });

  it("words a push without a compare URL, and a deleted branch", () => {
    expect(
      pushCommitsMessage({ userName: "a", compareUrl: null, branchName: "main", commits: [commit("a", 1)] }),
    ).toBe("a pushed 1 commit to branch main.\n\n* Commit 1 ([11111111111](https://example.com/c/1))");
    expect(
      pushCommitsMessage({
        userName: "a",
        compareUrl: "https://x/compare",
        branchName: "old",
        commits: [],
        deleted: true,
      }),
    ).toBe("a [deleted](https://x/compare) the branch old.");
  });

  it("lists several assignees and keeps a title's own final punctuation", () => {
    expect(
      pullRequestEventMessage({
        userName: "a",
        action: "opened",
        url: "https://x/mr/1",
        number: 1,
        type: "MR",
        assignees: [{ username: "b" }, { username: "c" }, { username: "d" }],
        message: "Body",
      }),
    ).toBe("a opened [MR #1](https://x/mr/1) (assigned to b, c and d):\n\n~~~ quote\nBody\n~~~");
    expect(
      pullRequestEventMessage({
        userName: "a",
        action: "closed",
        url: "https://x/1",
        number: 1,
        title: "Why?",
      }),
    ).toBe("a closed [PR #1 Why?](https://x/1)");
  });

  it("words tags and releases", () => {
    expect(pushTagMessage("a", "v1", "https://x/v1")).toBe("a pushed tag [v1](https://x/v1).");
    expect(pushTagMessage("a", "v1.", null, "removed")).toBe("a removed tag v1.");
    expect(releaseEventMessage({ action: "published", tagName: "v1", releaseName: "One", url: null })).toBe(
      "Release One for tag v1 was published.",
    );
  });

  it("cuts topics at 60 code points", () => {
    expect(truncateTopic("x".repeat(60))).toBe("x".repeat(60));
    expect(truncateTopic("y".repeat(61))).toBe(`${"y".repeat(57)}...`);
  });
});
