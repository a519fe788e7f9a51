import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { casePayload, describeCases, onlyMessage } from "../kit/testing.js";
import beanstalk from "./index.js";

describeCases(beanstalk, new URL("./fixtures/cases", import.meta.url));

/** Posts `payload` as Beanstalk does: JSON in the urlencoded form field `payload`. */
function send(payload: unknown, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  const form = { payload: JSON.stringify(payload) };
  return dispatchWebhook(beanstalk, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "commits", ...params, ...form },
    rawBody: Buffer.from(new URLSearchParams(form).toString()),
    form,
  });
}

const gitPush = {
  uri: "git@acme.beanstalkapp.com:/web.git",
  branch: "main",
  ref: "refs/heads/main",
  pusher_name: "Ada Lovelace",
  repository: { name: "web", url: "https://acme.beanstalkapp.com/web" },
  commits: [
    {
      id: "abcdef0123456789",
      message: "Add the engine",
      url: "https://acme.beanstalkapp.com/web/changesets/abcdef01",
      author: { name: "Ada Lovelace", email: "ada@example.com" },
    },
  ],
};

describe("beanstalk: behaviour", () => {
  it("posts a Git push", () => {
    expect(onlyMessage(send(gitPush))).toEqual({
      topic: "web / main",
      body:
        "Ada Lovelace [pushed](https://acme.beanstalkapp.com/web) 1 commit to branch main.\n\n" +
        "* Add the engine ([abcdef01234](https://acme.beanstalkapp.com/web/changesets/abcdef01))",
    });
  });

  it("quotes only the first line of a Subversion commit message", () => {
    const svn = {
      author_full_name: "Ada Lovelace",
      changeset_url: "https://acme.beanstalkapp.com/svn/changesets/12",
      revision: 12,
      message: "Fix the engine\n\nIt was broken.",
    };
    expect(onlyMessage(send(svn))).toEqual({
      topic: "svn r12",
      body: "Ada Lovelace pushed [revision 12](https://acme.beanstalkapp.com/svn/changesets/12):\n\n> Fix the engine",
    });
  });

  it("filters Git pushes by branch; only_events and exclude_events do not apply, as in Zulip", () => {
    expect(send(gitPush, { branches: "dev, main" }).kind).toBe("messages");
    expect(send(gitPush, { branches: "mainline" }).kind).toBe("ignored");
    expect(send(gitPush, { exclude_events: '["git_push"]' }).kind).toBe("messages");
  });
});

describe("beanstalk: the payload field", () => {
  it("is read from a urlencoded body whatever its Content-Type", () => {
    const svn = {
      author_full_name: "Ada",
      changeset_url: "https://x/changesets/3",
      revision: 3,
      message: "m",
    };
    const outcome = dispatchWebhook(beanstalk, {
      headers: { "content-type": "text/plain;charset=UTF-8" },
      params: { stream: "commits" },
      rawBody: Buffer.from(new URLSearchParams({ payload: JSON.stringify(svn) }).toString()),
    });
    expect(onlyMessage(outcome)).toEqual({
      topic: "svn r3",
      body: "Ada pushed [revision 3](https://x/changesets/3):\n\n> m",
    });
  });

  it("is required, and must be JSON", () => {
    const send = (body: string): unknown => {
      try {
        dispatchWebhook(beanstalk, { headers: {}, params: {}, rawBody: Buffer.from(body) });
      } catch (err) {
        return (err as { code?: string }).code;
      }
      return "no error";
    };
    expect(send("other=1")).toBe("REQUEST_VARIABLE_MISSING");
    expect(send("payload=%7Bnot%20json")).toBe("INVALID_JSON");
  });
});

describe("beanstalk: Zulip's other cases", () => {
  const casesDir = new URL("./fixtures/cases", import.meta.url);
  /** The JSON a recorded case posts in its `payload` form field. */
  const recorded = (caseId: string): unknown => JSON.parse(String(casePayload(casesDir, caseId)["payload"]));
  const repo = "http://lfranchi-svn.beanstalkapp.com/work-test";

  it("posts a single commit to a branch the branches option names", () => {
    expect(onlyMessage(send(recorded("test_git_single"), { branches: "master,development" }))).toEqual({
      topic: "work-test / master",
      body: `Leo Franchi [pushed](${repo}) 1 commit to branch master.\n\n* add some stuff ([e50508df24c](${repo}/changesets/e50508df))`,
    });
  });

  it("posts a long push to a branch the branches option names", () => {
    const line = `* add some stuff ([e50508df24c](${repo}/changesets/e50508df))\n`;
    const outcome = send(recorded("test_git_more_than_limit"), { branches: "master,development" });
    expect(onlyMessage(outcome)).toEqual({
      topic: "work-test / master",
      body: `Leo Franchi [pushed](${repo}) 50 commits to branch master.\n\n${line.repeat(20)}[and 30 more commit(s)]`,
    });
  });

  it("posts nothing for pushes to branches the branches option leaves out", () => {
    for (const caseId of ["test_git_single", "test_git_multiple_committers", "test_git_multiple"]) {
      expect(send(recorded(caseId), { branches: "changes,development" }).kind).toBe("ignored");
    }
  });
});
