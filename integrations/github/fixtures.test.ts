import fs from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import github, { githubsponsors } from "./index.js";

/**
 * GitHub payloads of events the recorded cases do not show (fixtures/<X-GitHub-Event>__<variant>.json).
 * Expected topics and bodies follow Zulip's GitHub and GitHub Sponsors messages.
 */
const here = new URL(".", import.meta.url);
const repo = "https://github.com/baxterthehacker/public-repo";

describe("github: fixtures", () => {
  it("announces a published release", () => {
    expectFixture(github, here, "release__published", {
      topic: "public-repo",
      body: `baxterthehacker published release [Version 1.0](${repo}/releases/tag/v1.0) for tag v1.0.`,
    });
  });

  it("names a release without a name after its tag", () => {
    expectFixture(github, here, "release__published_without_name", {
      topic: "public-repo",
      body: `baxterthehacker published release [v1.0.1](${repo}/releases/tag/v1.0.1) for tag v1.0.1.`,
    });
  });

  it("announces a repository made public", () => {
    expectFixture(github, here, "public__repository_made_public", {
      topic: "public-repo",
      body: `baxterthehacker made the repository [baxterthehacker/public-repo](${repo}) public.`,
    });
  });

  it("reports a watch as a star", () => {
    expectFixture(github, here, "watch__started", {
      topic: "public-repo",
      body: `octocat starred the repository [baxterthehacker/public-repo](${repo}).`,
    });
  });

  it("reports a star, linking the stargazer", () => {
    expectFixture(github, here, "star__created", {
      topic: "public-repo",
      body: `[octocat](https://github.com/octocat) starred the repository [baxterthehacker/public-repo](${repo}).`,
    });
  });

  it("reports a star removed", () => {
    expectFixture(github, here, "star__deleted", {
      topic: "public-repo",
      body: `[octocat](https://github.com/octocat) unstarred the repository [baxterthehacker/public-repo](${repo}).`,
    });
  });

  it("lists the wiki pages changed", () => {
    expectFixture(github, here, "gollum__pages_created_and_edited", {
      topic: "public-repo / wiki pages",
      body:
        "jasonrudolph:\n" +
        `* created [Home](${repo}/wiki/Home)\n` +
        `* edited [Release notes](${repo}/wiki/Release-notes)`,
    });
  });

  it("reports a completed check run", () => {
    expectFixture(github, here, "check_run__completed", {
      topic: "public-repo / checks",
      body: `Check [build](${repo}/actions/runs/7802262716/job/21435623190) completed (success). ([d6fde92930d](${repo}/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))`,
    });
  });

  it("stays silent on a check run that has not completed", () => {
    expectFixture(github, here, "check_run__created", null);
  });
});

describe("githubsponsors: fixtures (X-GitHub-Event: sponsorship)", () => {
  it("announces a new sponsorship", () => {
    expectFixture(githubsponsors, here, "sponsorship__created", {
      topic: "sponsors",
      body: "hubot subscribed for $10 a month.",
    });
  });

  it("announces a cancelled sponsorship", () => {
    expectFixture(githubsponsors, here, "sponsorship__cancelled", {
      topic: "sponsors",
      body: "hubot cancelled their $10 a month subscription.",
    });
  });

  it("reports a sponsorship's privacy change", () => {
    expectFixture(githubsponsors, here, "sponsorship__edited", {
      topic: "sponsors",
      body: "hubot changed who can see their sponsorship from public to private.",
    });
  });

  it("announces a pending cancellation with its date", () => {
    expectFixture(githubsponsors, here, "sponsorship__pending_cancellation", {
      topic: "sponsors",
      body: "hubot's $10 a month subscription will be cancelled on March 01, 2024.",
    });
  });

  it("announces a pending tier change with its date", () => {
    expectFixture(githubsponsors, here, "sponsorship__pending_tier_change", {
      topic: "sponsors",
      body: "hubot's subscription will change from $25 a month to $10 a month on March 01, 2024.",
    });
  });

  it("announces a tier change", () => {
    expectFixture(githubsponsors, here, "sponsorship__tier_changed", {
      topic: "sponsors",
      body: "hubot changed their subscription from $10 a month to $25 a month.",
    });
  });
});

describe("github: sponsorship events named by their action, as Zulip's tests send them", () => {
  it("created", () => {
    expectFixture(github, here, "created__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa subscribed for $5 a month.",
    });
  });

  it("cancelled", () => {
    expectFixture(github, here, "cancelled__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa cancelled their $5 a month subscription.",
    });
  });

  it("edited", () => {
    expectFixture(github, here, "edited__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa changed who can see their sponsorship from public to private.",
    });
  });

  it("pending_cancellation", () => {
    expectFixture(github, here, "pending_cancellation__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa's $5 a month subscription will be cancelled on January 05, 2020.",
    });
  });

  it("pending_tier_change", () => {
    expectFixture(github, here, "pending_tier_change__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa's subscription will change from $10 a month to $5 a month on January 05, 2020.",
    });
  });

  it("tier_changed", () => {
    expectFixture(github, here, "tier_changed__action_as_event_header", {
      topic: "sponsors",
      body: "monalisa changed their subscription from $5 a month to $10 a month.",
    });
  });
});

/**
 * Zulip serves /githubsponsors with its GitHub view, so a Sponsors webhook URL posts any GitHub event
 * it is sent, worded as on /github.
 */
describe("githubsponsors: other GitHub events", () => {
  const hw = "https://github.com/octocat/hello-world";
  const sha = "6dcb09b5b57875f334f61aebed695e2e4193db5e";
  const cases: [string, string, string][] = [
    [
      "push__1_commit",
      "hello-world / main",
      `octocat [pushed](${hw}/compare/7638417db6d5...6dcb09b5b578) 1 commit to branch main.\n\n` +
        `* Fix the greeting ([6dcb09b5b57](${hw}/commit/${sha}))`,
    ],
    ["push__tag", "hello-world", "octocat pushed tag v1.1."],
    [
      "pull_request__opened",
      "hello-world / PR #3 Fix the greeting",
      `octocat opened [PR #3](${hw}/pull/3) from \`octocat:fix-greeting\` to \`octocat:main\`:\n\n` +
        "~~~ quote\nSays hello to the world, not to the word.\n~~~",
    ],
    [
      "pull_request_review__approved",
      "hello-world / PR #3 Fix the greeting",
      `hubot submitted [PR review](${hw}/pull/3#pullrequestreview-1876543210):\n\n~~~ quote\nLooks good to me.\n~~~`,
    ],
    [
      "pull_request_review_comment__created",
      "hello-world / PR #3 Fix the greeting",
      `hubot created [PR review comment](${hw}/pull/3#discussion_r1480001234):\n\n` +
        "~~~ quote\nMaybe add an exclamation mark?\n~~~",
    ],
    [
      "issues__opened",
      "hello-world / issue #4 Greeting is misspelled",
      `octocat opened [issue #4](${hw}/issues/4):\n\n~~~ quote\nIt says "Hello Wrold".\n~~~`,
    ],
    [
      "issue_comment__created",
      "hello-world / issue #4 Greeting is misspelled",
      `hubot [commented](${hw}/issues/4#issuecomment-1929123456) on [issue #4](${hw}/issues/4):\n\n` +
        "~~~ quote\nFixed by #3.\n~~~",
    ],
    [
      "commit_comment__created",
      "hello-world",
      `hubot [commented](${hw}/commit/${sha}#commitcomment-138021234) on [6dcb09b5b57](${hw}/commit/${sha}):\n` +
        "~~~ quote\nNice catch!\n~~~",
    ],
    [
      "discussion__created",
      "hello-world discussion #7: Roadmap for 2.0",
      `octocat created [discussion #7](${hw}/discussions/7) in Ideas:\n\n` +
        "~~~ quote\n### Roadmap for 2.0\nWhat should go into 2.0?\n~~~",
    ],
    [
      "discussion_comment__created",
      "hello-world discussion #7: Roadmap for 2.0",
      `hubot [commented](${hw}/discussions/7#discussioncomment-8401234) on [discussion #7](${hw}/discussions/7):\n\n` +
        "~~~ quote\nDark mode, please.\n~~~",
    ],
    ["create__branch", "hello-world", "octocat created branch fix-greeting."],
    ["delete__branch", "hello-world", "octocat deleted branch fix-greeting."],
    ["ping__repository_hook", "hello-world", "GitHub webhook has been successfully configured by octocat."],
    ["fork__to_user", "hello-world", "hubot forked [hello-world](https://github.com/hubot/hello-world)."],
    [
      "member__added",
      "hello-world",
      `octocat added [hubot](https://github.com/hubot) to [hello-world](${hw}).`,
    ],
    [
      "membership__added",
      "octo-org organization",
      "octocat added [hubot](https://github.com/hubot) to the Maintainers team.",
    ],
    ["repository__archived", "hello-world", `octocat archived the repository [octocat/hello-world](${hw}).`],
    [
      "team_add__repository_added",
      "octo-repo",
      "The repository [octo-org/octo-repo](https://github.com/octo-org/octo-repo) was added to team Maintainers.",
    ],
    ["team__renamed", "team Maintainers", "Team `Maintainer` was renamed to `Maintainers`."],
    [
      "status__success",
      "hello-world",
      `[6dcb09b5b57](${hw}/commit/${sha}) changed its status to [success](https://ci.example.com/octocat/hello-world/builds/42).`,
    ],
    ["deployment__created", "hello-world / Deployment on production", "octocat created new deployment."],
    [
      "deployment_status__success",
      "hello-world / Deployment on production",
      "Deployment changed status to success.",
    ],
    ["page_build__built", "hello-world", "GitHub Pages build, triggered by octocat, has finished building."],
    [
      "pull_request__auto_merge_enabled",
      "hello-world / PR #3 Fix the greeting",
      `octocat has enabled auto merge for [PR #3](${hw}/pull/3).`,
    ],
    [
      "issues__transferred",
      "hello-world / issue #4 Greeting is misspelled",
      `octocat transferred [issue #4 Greeting is misspelled](${hw}/issues/4) to [octocat/hello-docs/#12](https://github.com/octocat/hello-docs/issues/12).`,
    ],
    [
      "dependabot_alert__created",
      "hello-world / Dependabot alert #1",
      `dependabot[bot] opened [Dependabot alert #1](${hw}/security/dependabot/1) for npm package \`lodash\`: **high** severity, [GHSA-35jh-r3h4-6jhm](https://github.com/advisories/GHSA-35jh-r3h4-6jhm) Command Injection in lodash.\n` +
        "Patched in 4.17.21.",
    ],
    [
      "dependabot_alert__dismissed",
      "hello-world / Dependabot alert #2",
      `octocat dismissed [Dependabot alert #2](${hw}/security/dependabot/2) for npm package \`lodash\`: **high** severity, [GHSA-35jh-r3h4-6jhm](https://github.com/advisories/GHSA-35jh-r3h4-6jhm) Command Injection in lodash.\n` +
        "Reason: tolerable risk.\n" +
        "> Only the build scripts use lodash's template.",
    ],
  ];
  it.each(cases)("%s", (name, topic, body) => {
    expectFixture(githubsponsors, here, name, { topic, body });
  });
});

describe("github: a Dependabot alert's topic follows the alert", () => {
  const payload = (action: string): Record<string, unknown> => ({
    ...(JSON.parse(
      fs.readFileSync(new URL("fixtures/dependabot_alert__dismissed.json", here), "utf8"),
    ) as Record<string, unknown>),
    action,
  });
  it.each([
    ["created", false],
    ["reopened", false],
    ["reintroduced", false],
    ["dismissed", true],
    ["auto_dismissed", true],
    ["fixed", true],
  ])("%s: resolves %s", (action, resolves) => {
    expect(onlyMessage(dispatchPayload(github, "dependabot_alert", payload(action))).resolves).toBe(resolves);
  });
});

/**
 * Zulip's GitHub tests whose payloads the recorded cases do not hold (fixtures/ keeps the parts of
 * Zulip's fixtures that the messages read); expected topics and messages are Zulip's.
 */
describe("github: Zulip's other test fixtures", () => {
  it("test_check_run: a re-requested check run that has completed", () => {
    expectFixture(github, here, "check_run__completed_success", {
      topic: "hello-world / checks",
      body: "Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))",
    });
  });

  it("test_check_run_in_progress_ignore: a check run in progress posts nothing", () => {
    expectFixture(github, here, "check_run__in_progress", null);
  });

  it("test_issue_labeled", () => {
    expectFixture(github, here, "issues__labeled", {
      topic: "testing-gh / issue #9 idk man",
      body: "[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9](https://github.com/sbansal1999/testing-gh/issues/9).",
    });
  });

  it("test_issue_labeled_with_custom_topic_in_url", () => {
    expectFixture(
      github,
      here,
      "issues__labeled",
      {
        topic: "notifications",
        body: "[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9 idk man](https://github.com/sbansal1999/testing-gh/issues/9).",
      },
      { topic: "notifications" },
    );
  });

  it("test_issue_comment_pull_request_comment_msg", () => {
    expectFixture(github, here, "issue_comment__pull_request_comment", {
      topic: "public-repo / PR #1 Update the README with new information",
      body: "sbansal1999 [commented](https://github.com/sbansal1999/public-repo/pull/1#issuecomment-1631445420) on [PR #1](https://github.com/sbansal1999/public-repo/pull/1):\n\n~~~ quote\nSome comment\n~~~",
    });
  });

  it("test_push__force_remove_commits: a force push that only removed commits", () => {
    expectFixture(github, here, "push__force_remove_commits", {
      topic: "zulip / temp",
      body: "sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/2084a91af9ca...9a8749ea8fe7) the branch temp.",
    });
  });

  it("test_pull_request_auto_merge_disabled", () => {
    expectFixture(github, here, "pull_request__auto_merge_disabled", {
      topic: "public-repo / PR #1 Update the README with new information",
      body: "tushar912 has disabled auto merge for [PR #1](https://github.com/tushar912/public-repo/pull/1).",
    });
  });

  it("test_star_event", () => {
    expectFixture(github, here, "star__created_codertocat", {
      topic: "Hello-World",
      body: "[Codertocat](https://github.com/Codertocat) starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).",
    });
  });

  it("test_team_edited_name", () => {
    expectFixture(github, here, "team__edited_name", {
      topic: "team Testing Team",
      body: "Team `Testing` was renamed to `Testing Team`.",
    });
  });

  it("test_wiki_pages_msg", () => {
    expectFixture(github, here, "gollum__wiki_pages", {
      topic: "public-repo / wiki pages",
      body:
        "jasonrudolph:\n* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)\n" +
        "* created [Home](https://github.com/baxterthehacker/public-repo/wiki/Home)",
    });
  });

  it("test_release_msg_with_name", () => {
    expectFixture(github, here, "release__with_name", {
      topic: "public-repo",
      body: "baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.",
    });
  });

  it("issues__transferred: the issue's old repository hears who moved it and where", () => {
    expectFixture(github, here, "issues__transferred_to_other_repository", {
      topic: "TestWebhook / issue #4 Fixture collection",
      body: "Aditya8840 transferred [issue #4 Fixture collection](https://github.com/CrisisCollab/TestWebhook/issues/4) to [CrisisCollab/admin-frontend-mvp/#4](https://github.com/CrisisCollab/admin-frontend-mvp/issues/4).",
    });
  });

  it("test_discussion_unlabeled: the label named in plain text", () => {
    expectFixture(github, here, "discussion__unlabeled", {
      topic: "webhook-tester discussion #3: Tips for Writing Clear and ...",
      body: "Niloth-p removed the enhancement label from [discussion #3](https://github.com/Niloth-p/webhook-tester/discussions/3).",
    });
  });

  it("test_discussion_answered: the comment chosen as the answer, quoted", () => {
    expectFixture(github, here, "discussion__answered", {
      topic: "webhook-tester discussion #5: Understanding Project Direc...",
      body:
        "Niloth-p marked [comment #11460065](https://github.com/Niloth-p/webhook-tester/discussions/5#discussioncomment-11460065) as the answer:\n\n" +
        "~~~ quote\nIf you're looking for a detailed explanation of the project structure, I'd recommend checking out our CONTRIBUTING.md file. " +
        "It includes a breakdown of the different directories and files, as well as some guidelines for contributing to the project.\n~~~",
    });
  });

  it("test_tier_changed_message (githubsponsors)", () => {
    expectFixture(githubsponsors, here, "tier_changed__to_lower_tier", {
      topic: "sponsors",
      body: "monalisa changed their subscription from $10 a month to $5 a month.",
    });
  });

  it("test_watch_msg", () => {
    expectFixture(github, here, "watch__repository", {
      topic: "public-repo",
      body: "baxterthehacker starred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).",
    });
  });

  it("ping__sponsors: a Sponsors listing's webhook (no repository, no organization) is set up", () => {
    expectFixture(githubsponsors, here, "ping__sponsors", {
      topic: "sponsors",
      body: "GitHub webhook has been successfully configured by marcphilipp.",
    });
  });

  it("test_pending_tier_change_message (githubsponsors)", () => {
    expectFixture(githubsponsors, here, "pending_tier_change__effective_december", {
      topic: "sponsors",
      body: "monalisa's subscription will change from $10 a month to $5 a month on December 30, 2019.",
    });
  });
});

/** Zulip's GitHub tests (main branch, December 2025) whose payloads the recorded cases lack. */
describe("github: Zulip's December 2025 tests", () => {
  const discussionTopic = "webhook-tester discussion #3: Tips for Writing Clear and ...";
  const discussion3 = "[discussion #3](https://github.com/Niloth-p/webhook-tester/discussions/3)";

  it("test_status_msg: a commit status without a target URL", () => {
    expectFixture(github, here, "status__success_without_target_url", {
      topic: "public-repo",
      body: "[9049f1265b7](https://github.com/baxterthehacker/public-repo/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to success.",
    });
  });

  it("test_release_msg: a release without a name is named after its tag", () => {
    expectFixture(github, here, "release__published_tag_0_0_1", {
      topic: "public-repo",
      body: "baxterthehacker published release [0.0.1](https://github.com/baxterthehacker/public-repo/releases/tag/0.0.1) for tag 0.0.1.",
    });
  });

  it("test_discussion_created", () => {
    expectFixture(github, here, "discussion__created_in_general", {
      topic: discussionTopic,
      body:
        `Niloth-p created ${discussion3} in General:\n\n~~~ quote\n### Tips for Writing Clear and Concise Commit Messages\n` +
        "Writing good commit messages is an art, but it's also an important part of maintaining a clear and understandable project history. " +
        "What are some tips and tricks you've learned for writing clear and concise commit messages? Do you have any favorite templates or formats?\n~~~",
    });
  });

  it("test_discussion_labeled: the label named in plain text", () => {
    expectFixture(github, here, "discussion__labeled", {
      topic: discussionTopic,
      body: `Niloth-p added the enhancement label to ${discussion3}.`,
    });
  });

  it("test_discussion_pinned", () => {
    expectFixture(github, here, "discussion__pinned", {
      topic: discussionTopic,
      body: `Niloth-p pinned ${discussion3}.`,
    });
  });

  it("test_created_message: a new sponsorship posted to the GitHub URL", () => {
    expectFixture(github, here, "created__sponsorship", {
      topic: "sponsors",
      body: "monalisa subscribed for $5 a month.",
    });
  });

  it("test_edited_message: a sponsorship's privacy changed", () => {
    expectFixture(github, here, "edited__sponsorship_privacy", {
      topic: "sponsors",
      body: "monalisa changed who can see their sponsorship from public to private.",
    });
  });

  it("test_public_msg", () => {
    expectFixture(github, here, "public__made_public", {
      topic: "public-repo",
      body: "baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.",
    });
  });

  it("test_private_repository_msg: a repository created in an organization", () => {
    expectFixture(github, here, "repository__created", {
      topic: "public-repo",
      body: "baxterthehacker created the repository [baxterandthehackers/public-repo](https://github.com/baxterandthehackers/public-repo).",
    });
  });

  it("test_pull_request_auto_merge_enabled", () => {
    expectFixture(github, here, "pull_request__auto_merge_enabled_tushar912", {
      topic: "public-repo / PR #1 Update the README with new information",
      body: "tushar912 has enabled auto merge for [PR #1](https://github.com/tushar912/public-repo/pull/1).",
    });
  });

  it("test_push_1_commit_without_username: the author is named by name", () => {
    expectFixture(github, here, "push__1_commit_without_username", {
      topic: "public-repo / changes",
      body:
        "eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/0383613da871...2e8cf535fb38) 1 commit to branch changes. Commits by John Snow (1).\n\n" +
        "* Update the README ([2e8cf535fb3](https://github.com/eeshangarg/public-repo/commit/2e8cf535fb38a3dab2476cdf856efda904ad4c94))",
    });
  });

  it("test_push_local_branch_without_commits", () => {
    expectFixture(github, here, "push__local_branch_without_commits", {
      topic: "public-repo / feature",
      body: "eeshangarg [pushed](https://github.com/eeshangarg/public-repo/compare/feature) the branch feature.",
    });
  });

  it("test_push_1_commit_private_repository_skipped: ignore_private_repositories=true", () => {
    expectFixture(github, here, "push__1_commit_private_repository", null, {
      ignore_private_repositories: "true",
    });
  });
});
