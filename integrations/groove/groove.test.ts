import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import groove from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(groove, cases);

describe("groove: events the recorded cases do not show", () => {
  it("posts agent and customer replies", () => {
    expectFixture(groove, here, "agent_replied__reply", {
      topic: "notifications",
      body:
        "agent@example.com replied to [ticket #776](https://ghostfox.groovehq.com/groove_client/tickets/68667295):\n\n" +
        "``` quote\nHello , This is a reply from an agent to a ticket\n```",
    });
    expectFixture(groove, here, "customer_replied__reply", {
      topic: "notifications",
      body:
        "rambo@example.com replied to [ticket #440](https://ghostfox.groovehq.com/groove_client/tickets/68666538):\n\n" +
        "``` quote\nHello agent, thanks for getting back. This is how a reply from customer looks like.\n```",
    });
  });

  it("names both the agent and the group of an assignment", () => {
    expectFixture(groove, here, "ticket_assigned__agent_and_group", {
      topic: "notifications",
      body: "[#9: Test Subject](https://testteam.groovehq.com/groove_client/tickets/68659446) (open) assigned to agent@example.com from group2.",
    });
  });

  it("rejects unknown events and requests without X-Groove-Event", () => {
    const p = casePayload(cases, "test_groove_ticket_started");
    const errorOf = (event: string | undefined): unknown => {
      try {
        dispatchPayload(groove, event, p);
      } catch (err) {
        return err instanceof JsonableError ? err.toJSON() : err;
      }
      return "ok";
    };
    expect(errorOf("ticket_deleted")).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "ticket_deleted",
    });
    expect(errorOf(undefined)).toMatchObject({ code: "MISSING_HTTP_EVENT_HEADER" });
  });

  it("filters with Groove's event names", () => {
    const p = casePayload(cases, "test_groove_ticket_started");
    expect(dispatchPayload(groove, "ticket_started", p, { only_events: '["note_added"]' }).kind).toBe(
      "filtered",
    );
  });
});
