import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import { fixtureRequest } from "../kit/index.js";
import { dispatchWebhook } from "../kit/stages.js";
import freshstatus from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(freshstatus, new URL("./fixtures/cases", import.meta.url));

describe("freshstatus: events the recorded cases lack", () => {
  it("says a reopened incident is not supported yet, in the incident's topic (as Zulip does)", () => {
    expectFixture(freshstatus, here, "INCIDENT_REOPEN__not_supported", {
      topic: "Sample title",
      body: "The event (INCIDENT_REOPEN) is not supported yet.",
    });
  });

  it("lists five services of a planned maintenance, then how many more", () => {
    expectFixture(freshstatus, here, "MAINTENANCE_PLANNED__services_over_limit", {
      topic: "Expect some services downtime due to server maintenance",
      body:
        "The following scheduled maintenance has been opened: **Expect some services downtime due to server maintenance**\n" +
        "**Description:** We will be upgrading the servers.\n" +
        "**Scheduled Start Time:** <time:2021-04-12T17:08:00+00:00>\n" +
        "**Scheduled End Time:** <time:2021-04-12T18:08:00+00:00>\n" +
        "**Affected Services:**\n* Sample Service\n* Sample Service 2\n* Sample Service 3\n" +
        "* Sample Service 4\n* Sample Service 5\n[and 2 more service(s)]",
    });
  });

  it("describes an incident note of another status as not supported yet", () => {
    expectFixture(freshstatus, here, "INCIDENT_NOTE_CREATE__status_resolved", {
      topic: "Degradation of Database Server",
      body: "The event (INCIDENT_NOTE_CREATE) is not supported yet.",
    });
  });

  it("answers Invalid payload for a webhook configured without the documented fields", () => {
    expect(() =>
      dispatchWebhook(freshstatus, fixtureRequest(freshstatus, here, "INCIDENT_NOTE_CREATE__missing_title")),
    ).toThrow(
      expect.objectContaining({
        message: "Invalid payload",
        code: "BAD_REQUEST",
        notice: expect.stringContaining("just received a Freshstatus payload that is missing"),
      }),
    );
    expect(() => dispatchPayload(freshstatus, undefined, { id: "1" })).toThrow("Invalid payload");
  });

  it("says an event type Freshstatus added later is not supported yet, as Zulip does", () => {
    // Zulip's freshstatus_event_not_supported payload with another type: Zulip's view posts the
    // same sentence for any type it does not describe, in the title's topic.
    expectFixture(freshstatus, here, "COMPONENT_UPDATE__not_supported", {
      topic: "Sample title",
      body: "The event (COMPONENT_UPDATE) is not supported yet.",
    });
  });

  it("filters an event type it does not describe on that type's own name", () => {
    const run = (params: Record<string, string>): string =>
      dispatchWebhook(
        freshstatus,
        fixtureRequest(freshstatus, here, "COMPONENT_UPDATE__not_supported", params),
      ).kind;
    expect(run({ only_events: '["COMPONENT_*"]' })).toBe("messages");
    expect(run({ only_events: '["INCIDENT_*"]' })).not.toBe("messages");
    expect(run({ exclude_events: '["COMPONENT_UPDATE"]' })).not.toBe("messages");
    expect(run({ exclude_events: '["INCIDENT_*"]' })).toBe("messages");
  });

  it("answers Invalid payload for an event type it does not describe without a title", () => {
    expect(() =>
      dispatchPayload(freshstatus, undefined, { event_data: { event_type: "COMPONENT_UPDATE" } }),
    ).toThrow(expect.objectContaining({ message: "Invalid payload", code: "BAD_REQUEST" }));
  });

  it("filters on the event type", () => {
    const payload = {
      title: "t",
      message: "m",
      incident_status: "Open",
      event_data: { event_type: "INCIDENT_NOTE_CREATE" },
    };
    expect(dispatchPayload(freshstatus, undefined, payload, { exclude_events: '["INCIDENT_*"]' }).kind).toBe(
      "filtered",
    );
  });
});

describe("freshstatus: Zulip's other fixtures", () => {
  it("posts an incident opened on one service", () => {
    expectFixture(freshstatus, here, "INCIDENT_OPEN__one_service", {
      topic: "Degradation of Database Server",
      body:
        "The following incident has been opened: **Degradation of Database Server**\n" +
        "**Description:** This issue is being investigated.\n" +
        "**Start Time:** <time:2021-04-12T16:29:00+00:00>\n" +
        "**Affected Services:**\n* Database Server",
    });
  });

  it("lists every service of a maintenance planned on two", () => {
    expectFixture(freshstatus, here, "MAINTENANCE_PLANNED__multiple_services", {
      topic: "Expect some services downtime due to server maintenance",
      body:
        "The following scheduled maintenance has been opened: **Expect some services downtime due to server maintenance**\n" +
        "**Description:** As part of the upgrade routine, we will be carrying out server maintenance work for this Service. " +
        "This work will affect the Service to be unavailable during the maintenance window. We apologize for any inconvenience " +
        "this may cause. Please do not hesitate to contact our support team at support@example.com if you have any questions " +
        "regarding this server upgrading exercise.\n" +
        "**Scheduled Start Time:** <time:2021-04-12T17:08:00+00:00>\n" +
        "**Scheduled End Time:** <time:2021-04-12T18:08:00+00:00>\n" +
        "**Affected Services:**\n* Sample Service\n* Sample Service 2",
    });
  });
});
