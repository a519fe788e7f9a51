import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import type { DispatchOutcome } from "../kit/index.js";
import { casePayload, describeCases, dispatchPayload } from "../kit/testing.js";
import bitbucket2 from "./index.js";

describeCases(bitbucket2, new URL("./fixtures/cases", import.meta.url));

type Json = Record<string, unknown>;

/** A recorded payload, deep-copied so a test may edit it. */
const fixture = (caseId: string): Json => casePayload(new URL("./fixtures/cases", import.meta.url), caseId);

function send(
  eventKey: string | undefined,
  payload: unknown,
  params: Record<string, string> = {},
): DispatchOutcome {
  return dispatchPayload(bitbucket2, eventKey, payload, params);
}

function messages(outcome: DispatchOutcome): { topic: string; body: string }[] {
  if (outcome.kind !== "messages") throw new Error(`expected messages, got ${outcome.kind}`);
  return outcome.messages;
}

function message(outcome: DispatchOutcome): { topic: string; body: string } {
  const all = messages(outcome);
  expect(all).toHaveLength(1);
  const [m] = all;
  if (m === undefined) throw new Error("no message");
  return m;
}

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("expected an error");
}

describe("bitbucket2: behaviour the recorded cases do not show", () => {
  it("announces a fork", () => {
    const p = fixture("test_bitbucket2_on_commit_status_changed_event");
    delete p["commit_status"];
    p["fork"] = {
      full_name: "kolaszek/repository-name2",
      links: { html: { href: "https://bitbucket.org/kolaszek/repository-name2" } },
    };
    expect(message(send("repo:fork", p))).toEqual({
      topic: "Repository name",
      body: "Tomasz forked the repository into [kolaszek/repository-name2](https://bitbucket.org/kolaszek/repository-name2).",
    });
  });

  it("quotes a new issue and names its assignee", () => {
    const p = fixture("test_bitbucket2_on_issue_updated_event");
    delete p["changes"];
    delete p["comment"];
    expect(message(send("issue:created", p))).toEqual({
      topic: "Repository name / issue #1 Bug",
      body:
        "Tomasz created [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug) (assigned to Tomasz):\n\n" +
        "~~~ quote\nSuch a bug more description\n~~~",
    });
  });

  it("reports a comment on an issue", () => {
    const p = fixture("test_bitbucket2_on_issue_commented_with_custom_topic_in_url");
    expect(message(send("issue:comment_created", p))).toEqual({
      topic: "Repository name / issue #1 Bug",
      body: "Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/issues/2#comment-28973596) on [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).",
    });
  });

  it("quotes a new pull request comment", () => {
    const p = fixture("test_bitbucket2_on_pull_request_comment_deleted_event");
    expect(message(send("pullrequest:comment_created", p))).toEqual({
      topic: "Repository name / PR #1 new commit",
      body:
        "Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/pull-requests/3/_/diff#comment-20576503) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/3):\n\n" +
        "~~~ quote\nComment1\n~~~",
    });
  });

  it("names the pull request in the body when the URL sets the topic", () => {
    const p = fixture("test_bitbucket2_on_pull_request_approved_event");
    expect(message(send("pullrequest:approved", p, { topic: "my%20topic" }))).toEqual({
      topic: "my topic",
      body: "Tomasz approved [PR #1 new commit](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
    });
  });

  it("sends one message per change of a push", () => {
    const p = fixture("test_bitbucket2_on_more_than_one_push_event");
    const all = messages(send("repo:push", p));
    expect(all.map((m) => m.topic)).toEqual(["Repository name / master", "Repository name"]);
    expect(all[1]?.body).toBe(
      "Tomasz pushed tag [a](https://bitbucket.org/kolaszek/repository-name/commits/tag/a).",
    );
  });

  it("stays silent on a push without changes", () => {
    const p = fixture("test_bitbucket2_on_push_event");
    (p["push"] as Json)["changes"] = [];
    expect(send("repo:push", p).kind).toBe("ignored");
  });

  it("calls an actor without display name or nickname an unknown user", () => {
    const p = fixture("test_bitbucket2_on_remove_branch_event");
    p["actor"] = { type: "user", uuid: "{678ab31f-9f88-4d7a-b343-1bdf9f024917}" };
    expect(message(send("repo:push", p)).body).toBe("Unknown user deleted branch master.");
  });

  it("rejects a pull request event it does not report, naming the X-Event-Key", () => {
    const p = fixture("test_bitbucket2_on_pull_request_approved_event");
    expect(errorOf(() => send("pullrequest:changes_request_created", p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "pullrequest:changes_request_created",
      webhook_name: "Bitbucket2",
    });
  });

  it("needs X-Event-Key only for events its payload does not identify", () => {
    expect(send(undefined, fixture("test_bitbucket2_on_push_event")).kind).toBe("messages");
    expect(
      errorOf(() => send(undefined, fixture("test_bitbucket2_on_pull_request_approved_event"))),
    ).toMatchObject({
      code: "MISSING_HTTP_EVENT_HEADER",
      header: "X-Event-Key",
    });
  });

  it("filters on Zulip's event type names", () => {
    const p = fixture("test_bitbucket2_on_pull_request_fulfilled_event");
    const only = (names: string[]): string =>
      send("pullrequest:fulfilled", p, { only_events: JSON.stringify(names) }).kind;
    expect(only(["pull_request_fulfilled"])).toBe("messages");
    expect(only(["push", "pull_request_created"])).toBe("filtered");
  });
});
