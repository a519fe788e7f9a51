import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, expectError, expectFixture } from "../kit/testing.js";
import { fixtureRequest } from "../kit/fixtures.js";
import jira from "./index.js";

// Zulip's test realm, against which the cases were recorded: assignees are named after its users.
const realmUsers = { "othello@zulip.com": "Othello, the Moor of Venice" };

describeCases(jira, new URL("./fixtures/cases", import.meta.url), undefined, { realmUsers });

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(jira, {
    headers: { "content-type": "application/json" },
    params: { stream: "jira", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const issue = {
  self: "https://acme.atlassian.net/rest/api/2/issue/10001",
  key: "OPS-7",
  fields: {
    summary: "Rotate the keys?",
    priority: { name: "High" },
    assignee: { displayName: "Ann A.", emailAddress: "ann@acme.com" },
  },
};

describe("jira: events the recorded cases lack", () => {
  it("lists every changelog item and names an unknown assignee by email", () => {
    const payload = {
      webhookEvent: "jira:issue_updated",
      issue_event_type_name: "issue_generic",
      user: { displayName: "Bob" },
      issue,
      changelog: {
        items: [
          { field: "status", fromString: "Open", toString: "Done" },
          { field: "labels", fromString: null, toString: "urgent" },
          { field: "assignee", fromString: "Carl", toString: "Ann A." },
        ],
      },
    };
    expect(post(payload)).toEqual({
      kind: "messages",
      event: "jira:issue_updated",
      messages: [
        {
          topic: "OPS-7: Rotate the keys?",
          body:
            "Bob updated [OPS-7: Rotate the keys?](https://acme.atlassian.net/browse/OPS-7) (assigned to **ann@acme.com**):\n\n" +
            "* Changed status from **Open** to **Done**\n" +
            "* Changed labels to **urgent**\n" +
            "* Changed assignee from **Carl** to **ann@acme.com**",
        },
      ],
    });
  });

  it("converts Jira markup in comments on issue updates", () => {
    const payload = {
      webhookEvent: "jira:issue_updated",
      issue_event_type_name: "issue_commented",
      user: { displayName: "Bob" },
      issue,
      comment: {
        author: { displayName: "Bob" },
        body: "bq. quoted\n[~carl] see [docs|https://d.example] *now*",
      },
    };
    const outcome = post(payload);
    expect(outcome.kind === "messages" ? outcome.messages[0]?.body : outcome.kind).toBe(
      "Bob commented on [OPS-7: Rotate the keys?](https://acme.atlassian.net/browse/OPS-7) (assigned to **ann@acme.com**):\n\n" +
        "``` quote\n> quoted\n**carl** see [docs](https://d.example) **now**\n```",
    );
  });

  it("adds no period after a title that ends with punctuation when an issue is deleted", () => {
    const outcome = post({ webhookEvent: "jira:issue_deleted", user: { displayName: "Bob" }, issue });
    expect(outcome.kind === "messages" ? outcome.messages[0]?.body : outcome.kind).toBe(
      "Bob deleted [OPS-7: Rotate the keys?](https://acme.atlassian.net/browse/OPS-7)",
    );
  });

  it("ignores issue links and filters on the webhook event", () => {
    expect(post({ webhookEvent: "issuelink_created" }).kind).toBe("ignored");
    expect(
      post(
        { webhookEvent: "jira:issue_deleted", user: { displayName: "Bob" }, issue },
        { only_events: '["comment_*"]' },
      ).kind,
    ).toBe("filtered");
  });

  it("rejects unknown events and payloads without an event", () => {
    expect(() => post({ webhookEvent: "board_created" })).toThrow(
      "The 'board_created' event isn't currently supported by the Jira webhook",
    );
    const caught = expectError(() => post({ user: {} }));
    expect(caught.toJSON()).toMatchObject({
      code: "ANOMALOUS_WEBHOOK_PAYLOAD",
      msg: "Unable to parse request: Did Jira generate this event?",
      webhook_name: "Jira",
    });
  });
});

describe("jira: resolve_topics", () => {
  const update = (items: unknown[]): unknown => ({
    webhookEvent: "jira:issue_updated",
    issue_event_type_name: "issue_generic",
    user: { displayName: "Ann A." },
    issue,
    changelog: { items },
  });
  const resolvesOf = (o: DispatchOutcome): unknown =>
    o.kind === "messages" ? o.messages.map((m) => m.resolves) : o.kind;

  it("resolves when the issue gets a resolution, unresolves when it loses it, else neither", () => {
    const status = { field: "status", fromString: "In Progress", toString: "Done" };
    expect(
      resolvesOf(post(update([status, { field: "resolution", fromString: null, toString: "Done" }]))),
    ).toEqual([true]);
    expect(resolvesOf(post(update([{ field: "resolution", fromString: "Done", toString: null }])))).toEqual([
      false,
    ]);
    expect(resolvesOf(post(update([{ field: "priority", fromString: "Low", toString: "High" }])))).toEqual([
      undefined,
    ]);
  });
});

describe("jira: Zulip's other fixtures", () => {
  const here = new URL(".", import.meta.url);

  // Zulip's test_comment_event_comment_created: the SP-1 issue of its comment_updated fixture,
  // with the comment of its comment_created fixture.
  it("words a comment_created event with the issue's link", () => {
    expectFixture(jira, here, "comment_created__sp_1", {
      topic: "SP-1: Add support for newer format Jira issue comment events",
      body:
        "Hemanth V. Alluri commented on [SP-1: Add support for newer format Jira issue comment events](https://f20171170.atlassian.net/browse/SP-1)\n" +
        "``` quote\nSounds like it’s pretty important. I’ll get this fixed ASAP!\n```",
    });
  });

  it("rejects Zulip's example anomalous payload", () => {
    const caught = expectError(() =>
      dispatchWebhook(jira, fixtureRequest(jira, here, "unknown__account_only")),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "ANOMALOUS_WEBHOOK_PAYLOAD",
      msg: "Unable to parse request: Did Jira generate this event?",
    });
  });
});
