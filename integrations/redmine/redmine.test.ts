import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import redmine from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
describeCases(redmine, cases);

/** The recorded update with its journal changed. */
function updated(journal: Record<string, unknown> | null): Record<string, unknown> {
  const p = casePayload(cases, "test_issue_updated");
  const inner = p["payload"] as Record<string, unknown>;
  if (journal === null) delete inner["journal"];
  else inner["journal"] = journal;
  return p;
}

describe("redmine: behaviour the recorded cases lack", () => {
  it("names the journal's author as the one who updated the issue", () => {
    const p = updated({ notes: "Fixed in r42.", author: { firstname: "Demo", lastname: "User" } });
    expect(onlyMessage(dispatchPayload(redmine, undefined, p))).toEqual({
      topic: "Issue #191 Found a bug",
      body: "**Demo User** updated [#191 Found a bug](https://example.com).\n\n~~~ quote\nFixed in r42.\n~~~",
    });
  });

  it("posts an update without notes (a status change) without a quote", () => {
    expect(onlyMessage(dispatchPayload(redmine, undefined, updated({ notes: "  " }))).body).toBe(
      "**test user** updated [#191 Found a bug](https://example.com).",
    );
    expect(onlyMessage(dispatchPayload(redmine, undefined, updated(null))).body).toBe(
      "**test user** updated [#191 Found a bug](https://example.com).",
    );
  });

  it("opens an issue with no description without a quote", () => {
    const p = casePayload(cases, "test_issue_opened_without_assignee");
    ((p["payload"] as Record<string, unknown>)["issue"] as Record<string, unknown>)["description"] = "";
    expect(onlyMessage(dispatchPayload(redmine, undefined, p)).body).toBe(
      "**test user** opened [#191 Found a bug](https://example.com).",
    );
  });

  it("answers another action as an unsupported event", () => {
    const p = casePayload(cases, "test_issue_opened");
    (p["payload"] as Record<string, unknown>)["action"] = "closed";
    expect(() => dispatchPayload(redmine, undefined, p)).toThrow(JsonableError);
  });
});

describe("redmine: Zulip's other fixtures", () => {
  // Zulip's issue_updated_different_author: the journal's author is not the issue's.
  it("names the journal's author, not the issue's, on an update", () => {
    expectFixture(redmine, new URL(".", import.meta.url), "updated__different_author", {
      topic: "Issue #191 Found a bug",
      body: "**Demo User** updated [#191 Found a bug](https://example.com).\n\n~~~ quote\nI've started working on this issue.\n~~~",
    });
  });
});
