import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, expectError, expectFixture, onlyMessage } from "../kit/testing.js";
import bitbucket from "./index.js";

describeCases(bitbucket, new URL("./fixtures/cases", import.meta.url));

/** Posts `payload` as Bitbucket's POST service does: JSON in the urlencoded field `payload`. */
function send(payload: unknown, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  const form = { payload: JSON.stringify(payload) };
  return dispatchWebhook(bitbucket, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "commits", ...params, ...form },
    rawBody: Buffer.from(new URLSearchParams(form).toString()),
    form,
  });
}

const push = {
  canon_url: "https://bitbucket.org",
  repository: { name: "web", absolute_url: "/team/web/" },
  user: "alice",
  commits: [
    { author: "bob", branch: "dev", message: "Fix the build\n\nDetails", raw_node: "0123456789abcdef0123" },
  ],
};

describe("bitbucket: behaviour", () => {
  it("reads the push from the form field and credits other authors", () => {
    expect(onlyMessage(send(push))).toEqual({
      topic: "web / dev",
      body:
        "alice pushed 1 commit to branch dev. Commits by bob (1).\n\n" +
        "* Fix the build ([0123456789a](https://bitbucket.org/team/web/commits/0123456789abcdef0123))",
    });
  });

  it("keeps a push to a branch the branches option names", () => {
    expect(send(push, { branches: "main, dev" }).kind).toBe("messages");
    expect(send(push, { branches: "main,development" }).kind).toBe("ignored");
  });

  it("credits a force push without a user to Someone", () => {
    const { user: _user, ...anonymous } = push;
    expect(onlyMessage(send({ ...anonymous, commits: [] }))).toEqual({
      topic: "web",
      body: "Someone [force pushed](https://bitbucket.org/team/web/).",
    });
  });

  it("reads a JSON body too, as Zulip does, and ignores only_events", () => {
    const outcome = dispatchWebhook(bitbucket, {
      headers: { "content-type": "application/json" },
      params: { stream: "commits", only_events: '["nothing"]' },
      rawBody: Buffer.from(JSON.stringify({ ...push, commits: [] })),
    });
    expect(onlyMessage(outcome)).toEqual({
      topic: "web",
      body: "alice [force pushed](https://bitbucket.org/team/web/).",
    });
  });

  it("credits commits without an author to the pusher, or to Someone", () => {
    const { user: _user, ...anonymous } = push;
    const commit = { branch: "dev", message: "Fix", raw_node: "0123456789abcdef0123" };
    expect(onlyMessage(send({ ...anonymous, commits: [commit] })).body).toBe(
      "Someone pushed 1 commit to branch dev.\n\n* Fix ([0123456789a](https://bitbucket.org/team/web/commits/0123456789abcdef0123))",
    );
  });

  it("requires the payload field", () => {
    const caught = expectError(() =>
      dispatchWebhook(bitbucket, { headers: {}, params: { stream: "commits" }, rawBody: Buffer.from("") }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "payload",
    });
  });
});

describe("bitbucket: Zulip's other cases", () => {
  const dir = new URL(".", import.meta.url);
  const commit =
    "* c ([25f93d22b71](https://bitbucket.org/kolaszek/repository-name/commits/25f93d22b719e2d678a7ad5ee0ef0d1fcdf39c12))";

  it("posts nothing for a push to a branch the branches option leaves out", () => {
    expectFixture(bitbucket, dir, "push__master", null, { branches: "changes,development" });
    expectFixture(bitbucket, dir, "push__master", {
      topic: "Repository name / master",
      body: `kolaszek pushed 1 commit to branch master.\n\n${commit}`,
    });
  });

  it("posts nothing for a long push to a branch the branches option leaves out", () => {
    expectFixture(bitbucket, dir, "push__commits_above_limit", null, { branches: "changes,development" });
    expectFixture(bitbucket, dir, "push__commits_above_limit", {
      topic: "Repository name / master",
      body: `kolaszek pushed 50 commits to branch master.\n\n${`${commit}\n`.repeat(20)}[and 30 more commit(s)]`,
    });
  });
});
