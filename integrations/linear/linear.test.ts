import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import linear from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(linear, cases);

describe("linear: events the recorded cases do not show", () => {
  it("posts new and edited comments", () => {
    expectFixture(linear, here, "comment__create", {
      topic: "Issue: Thorough Impact Analysis and Cost Realization",
      body:
        "Satyam Bansal [commented](https://linear.app/webhooks/issue/WEB-46/thorough-impact-analysis-and-cost-realization#comment-c7cafc52) " +
        "on issue **Thorough Impact Analysis and Cost Realization**:\n~~~ quote\nLet us start with the database logs.\n~~~",
    });
    expectFixture(linear, here, "comment__update", {
      topic: "Issue: Thorough Impact Analysis and Cost Realization",
      body:
        "Satyam Bansal [updated comment](https://linear.app/webhooks/issue/WEB-46/thorough-impact-analysis-and-cost-realization#comment-c7cafc52) " +
        "on issue **Thorough Impact Analysis and Cost Realization**:\n~~~ quote\nLet us start with the database and proxy logs.\n~~~",
    });
  });

  it("posts updated and removed issues", () => {
    expectFixture(linear, here, "issue__update", {
      topic: "Issue: Very small font in tooltip",
      body:
        "[Issue](https://linear.app/webhooks/issue/WEB-43/very-small-font-in-tooltip) was updated in team Webhooks:\n" +
        '~~~ quote\nThe tooltips at the "Select Drawing" and "Edit Drawing" buttons have a very small font and therefore are not very legible. ' +
        "Apart from this, the wording of the text has to be changed to fit better with the overall design pattern.\n~~~\n\n" +
        "Priority: Low, Assignee: Satyam Bansal, Status: Todo.",
    });
    expectFixture(linear, here, "issue__remove", {
      topic: "Issue: Very small font in tooltip",
      body: "This issue has been removed from team Webhooks.",
    });
  });

  it("posts projects created, updated and removed", () => {
    expectFixture(linear, here, "project__create", {
      topic: "Project: Website relaunch",
      body:
        "Satyam Bansal created project [Website relaunch](https://linear.app/webhooks/project/website-relaunch-9b0e0a3f):\n" +
        "~~~ quote\nShip the new marketing site.\n**Start date:** 2024-05-01 – **Target date:** 2024-06-30\n~~~\n" +
        "**Status:** Planned · **Lead:** Satyam Bansal · **Priority:** High\n- **Milestone:** Beta",
    });
    expectFixture(linear, here, "project__update", {
      topic: "Project: Website relaunch",
      body:
        "Satyam Bansal updated project [Website relaunch](https://linear.app/webhooks/project/website-relaunch-9b0e0a3f).\n" +
        "Project status is now In Progress, target date is preponed to 2024-06-15.",
    });
    expectFixture(linear, here, "project__update_after_status_post", null);
    expectFixture(linear, here, "project__remove", {
      topic: "Project: Website relaunch",
      body: "Satyam Bansal removed project **Website relaunch**.",
    });
  });

  it("stays silent on project payloads without an actor, as Zulip does", () => {
    expectFixture(linear, here, "project__create_without_actor", null);
  });

  it("posts a project status update", () => {
    expectFixture(linear, here, "project_update__create", {
      topic: "Project: Website relaunch",
      body:
        "Satyam Bansal [posted](https://linear.app/webhooks/project/website-relaunch-9b0e0a3f/updates#pu_1) a status update on " +
        "**Website relaunch** (health: At Risk):\n~~~ quote\nDesign is done; development starts next week.\n~~~",
    });
  });

  it("stays silent on reactions, labels and cycles", () => {
    expectFixture(linear, here, "reaction__create", null);
  });

  it("rejects a type it does not know, named with its action", () => {
    const caught = expectError(() =>
      dispatchPayload(linear, undefined, { type: "Document", action: "create", data: {} }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "Document:create",
    });
  });

  it("posts an issue without description, priority or state", () => {
    const p = casePayload(cases, "test_issue_create_simple") as { data: Record<string, unknown> };
    delete p.data["description"];
    delete p.data["priorityLabel"];
    delete p.data["state"];
    expect(onlyMessage(dispatchPayload(linear, undefined, p))).toEqual({
      topic: "Issue: Very small font in tooltip",
      body: "[Issue](https://linear.app/webhooks/issue/WEB-43/very-small-font-in-tooltip) was created in team Webhooks.",
    });
  });

  it("filters with its event names", () => {
    const p = casePayload(cases, "test_comment_remove");
    expect(dispatchPayload(linear, undefined, p, { only_events: '["issue", "sub_issue"]' }).kind).toBe(
      "filtered",
    );
  });
});

// Hex HMAC-SHA256 with the signing secret "lin_wh_secret", from `openssl dgst -sha256 -hmac`.
describeSignature(linear, {
  title: "Linear-Signature",
  header: "linear-signature",
  secret: "lin_wh_secret",
  body: '{"action":"create","type":"Reaction"}',
  signature: "58dc0bdff34115629418ad7c7ac61302d29fe3b597676335f9442eabacff97b7",
  rejects: [undefined],
});

describe("linear: Zulip's project fixtures", () => {
  it("lists a created project's dates, status, lead, priority and milestones", () => {
    expectFixture(linear, here, "project__create_complex", {
      topic: "Project: Zulip-Project",
      body:
        "Dhruv Shetty created project [Zulip-Project](https://linear.app/zulipdhruv/project/zulip-project-532c1333013b):\n" +
        "~~~ quote\nSummary for the Project\n**Start date:** 2026-05-28 – **Target date:** 2026-05-30\n~~~\n" +
        "**Status:** Planned · **Lead:** Dhruv Shetty · **Priority:** Urgent\n- **Milestone:** Phase 1",
    });
  });

  it("lists the dates of a project created without a description", () => {
    expectFixture(linear, here, "project__create_without_description_with_dates", {
      topic: "Project: Zulip-terminal",
      body:
        "Dhruv Shetty created project [Zulip-terminal](https://linear.app/zulipdhruv/project/zulip-terminal-5bfd1327f54b)\n" +
        "**Status:** Backlog\n- **Start date:** 2026-06-01\n- **Target date:** 2026-06-03",
    });
  });

  it("words a postponed target date", () => {
    expectFixture(linear, here, "project__update_target_date", {
      topic: "Project: Zulip-Project",
      body:
        "Dhruv Shetty updated project [Zulip-Project](https://linear.app/zulipdhruv/project/zulip-project-532c1333013b).\n" +
        "Target date is postponed to 2026-06-02.",
    });
  });

  it("words an edited status update with its diff", () => {
    expectFixture(linear, here, "project_update__update", {
      topic: "Project: Project Zulip",
      body:
        "Dhruv Shetty [edited](https://linear.app/zulipdhruv/project/project-zulip-c65c2156ca87/activity#project-update-4a0814c9) " +
        "a status update on **Project Zulip** (health: Off Track):\n~~~ quote\nThere is a risk\n~~~\n\n**Priority**: Medium",
    });
  });

  it("posts nothing for Linear's automatic project updates after a create or a status-update edit", () => {
    expectFixture(linear, here, "project__auto_update_after_create", null);
    expectFixture(linear, here, "project__auto_update_after_edit", null);
  });
});
