import { afterAll, beforeAll, describe, it } from "@jest/globals";
import { loadRecordings, startReplayServer } from "../kit/replay.js";
import type { ReplayServer } from "../kit/replay.js";
import { botTester } from "../kit/testing.js";
import githubDetail from "./index.js";

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(loadRecordings(new URL("./fixtures/", import.meta.url)).values());
});
afterAll(() => replay.close());

const ISSUE_5365 =
  "**[zulip/zulip#5365](https://github.com/zulip/zulip/issues/5365) - frontend: Enable hot-reloading of CSS in development**\n" +
  "Created by **[timabbott](https://github.com/timabbott)**\n" +
  "Status - **Open**\n```quote\nThere's strong interest among folks working on the frontend in being able to use the hot-reloading feature of webpack for managing our CSS.\n```";
const PULL_1 =
  "**[acme/rockets#1](https://github.com/acme/rockets/pull/1) - Add a launch checklist**\n" +
  "Created by **[wile-e](https://github.com/wile-e)**\n" +
  "Status - **Closed**\n```quote\nChecklist before each launch.\n```";

describe("github_detail (recorded responses)", () => {
  it("details every issue or pull request referenced, with the default owner and repo", () =>
    botTester(githubDetail, { config: { api_url: replay.url, owner: "zulip", repo: "zulip" } }).verifyDialog([
      ["zulip/zulip#5365", ISSUE_5365],
      ["#5365", ISSUE_5365],
      ["see zulip#5365 and acme/rockets#1", `${ISSUE_5365}\n${PULL_1}`],
      ["zulip/zulip#999999", "Failed to find issue/pr: zulip/zulip#999999"],
      ["hello", "Failed to find any issue or PR."],
    ]));

  it("needs an owner and repo when the reference has none, and explains itself on help", () =>
    botTester(githubDetail, { config: { api_url: replay.url } }).verifyDialog([
      ["#5365", "Failed to detect owner and repository name."],
      [
        "help",
        "This plugin displays details on github issues and pull requests. To reference an issue or pull request usename mention the bot then anytime in the message type its id, for example:\n" +
          "@**Github detail** #3212 zulip#3212 zulip/zulip#3212\n" +
          "The default owner is False and the default repo is False.",
      ],
    ]));
});
