import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import newrelic from "./index.js";

const here = new URL(".", import.meta.url);
const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(newrelic, cases);

describe("newrelic: events the recorded cases lack", () => {
  it("posts a new incident from the default template", () => {
    expectFixture(newrelic, here, "CREATED__default_payload", {
      topic: "MAIN-APP-UBUNTU query result is > 2.0 for 1 minutes on 'H...",
      body:
        ":red_circle: **[MAIN-APP-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'](https://radar-api.service.newrelic.com/accounts/1/issues/0ea2df1c-adab-45d2-aae0-042b609d2322?notifier=SLACK)**\n\n" +
        "```quote\n**Priority**: CRITICAL\n**State**: CREATED\n**Updated at**: <time:2024-04-22T06:36:29+00:00>\n\n```\n\n" +
        "```spoiler :file: Incident details\n\n" +
        "- **Alert policies**: `Golden Signals`\n- **Conditions**: `High CPU`\n- **Total incidents**: 1\n" +
        "- **Incident created at**: <time:2024-04-22T06:36:29+00:00>\n\n```",
    });
  });

  it("prints custom fields as Python does, in the order sent, and several policies", () => {
    expectFixture(newrelic, here, "CLOSED__custom_fields", {
      topic: "main_app-UBUNTU query result is > 2.0 for 1 minutes on 'H...",
      body:
        ":blue_circle: **[main_app-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'](https://radar-api.service.newrelic.com/accounts/1/issues/0ea2df1c-adab-45d2-aae0-042b609d2322?notifier=SLACK)**\n\n" +
        "```quote\n**Priority**: LOW\n**State**: CLOSED\n**Updated at**: <time:2024-04-22T06:17:37+00:00>\n" +
        "**Acknowledged by**: Jane Roe\n```\n\n" +
        "```spoiler :file: Incident details\n\n" +
        "- **Alert policies**: `Golden Signals`, `Disk`\n- **Conditions**: `High CPU`, `Low disk`\n" +
        "- **Total incidents**: 3\n- **Incident created at**: <time:2024-04-22T06:16:30+00:00>\n" +
        "- **Ratio**: 2.0\n- **9**: numeric key keeps its place\n- **Flags**: True, 1.5e-07, x\n\n```",
    });
  });

  it("warns about a workflow template without the fields the message needs", () => {
    expectFixture(newrelic, here, "missing_fields__workflow_template", {
      topic: "New Relic incident alerts",
      body:
        ":danger: A New Relic [incident](https://one.newrelic.com/alerts-ai) updated\n\n" +
        "**Warning**: Unable to use the default notification format because at least one expected field was " +
        "missing from the incident payload. See [New Relic integration documentation](/integrations/newrelic).\n\n" +
        "**Missing fields**: `issueUrl`, `totalIncidents`, `createdAt`, `updatedAt`, `alertPolicyNames`, `alertConditionNames`",
    });
  });

  it("does not let only_events drop the missing-fields warning (Zulip gives it no event type)", () => {
    const outcome = dispatchPayload(newrelic, undefined, { title: "x" }, { only_events: '["CLOSED"]' });
    expect(onlyMessage(outcome).topic).toBe("New Relic incident alerts");
  });

  it("filters on the issue state", () => {
    const payload = casePayload(cases, "test_incident_closed_default_payload");
    expect(dispatchPayload(newrelic, undefined, payload, { only_events: '["CREATED"]' }).kind).toBe(
      "filtered",
    );
    expect(dispatchPayload(newrelic, undefined, payload, { only_events: '["CLOSED"]' }).kind).toBe(
      "messages",
    );
  });

  it("uses a neutral emoji for a priority it does not know instead of failing", () => {
    const payload = { ...casePayload(cases, "test_incident_closed_default_payload"), priority: "URGENT" };
    expect(onlyMessage(dispatchPayload(newrelic, undefined, payload)).body.startsWith(":alert: **[")).toBe(
      true,
    );
  });

  it("answers an unknown issue state as an unsupported event", () => {
    const payload = { ...casePayload(cases, "test_incident_closed_default_payload"), state: "DEACTIVATED" };
    expect(() => dispatchPayload(newrelic, undefined, payload)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "DEACTIVATED" }),
    );
  });
});

describe("newrelic: Zulip's other fixtures", () => {
  it("adds custom fields to a payload without an owner", () => {
    expectFixture(newrelic, here, "CLOSED__provided_base_with_zulip_custom_fields", {
      topic: "main_app-UBUNTU query result is > 2.0 for 1 minutes on 'H...",
      body:
        ":red_circle: **[main_app-UBUNTU query result is > 2.0 for 1 minutes on 'High CPU'](https://radar-api.service.newrelic.com/accounts/1/issues/0ea2df1c-adab-45d2-aae0-042b609d2322?notifier=SLACK)**\n\n" +
        "```quote\n**Priority**: CRITICAL\n**State**: CLOSED\n**Updated at**: <time:2024-04-22T06:17:37+00:00>\n\n```\n\n" +
        "```spoiler :file: Incident details\n\n" +
        "- **Alert policies**: `Golden Signals`\n- **Conditions**: `High CPU`\n- **Total incidents**: 1\n" +
        "- **Incident created at**: <time:2024-04-22T06:16:30+00:00>\n" +
        "- **Your custom payload**: somedata123\n- **Custom status 1**: True\n" +
        "- **Custom list 1**: SSD, 2000, False, None, 13.33\n- **Custom field 1**: None\n- **Custom field 2**: 9000\n\n```",
    });
  });

  it("lists every essential field a payload lacks", () => {
    expectFixture(newrelic, here, "missing_fields__essential_fields_default_payload", {
      topic: "New Relic incident alerts",
      body:
        ":danger: A New Relic [incident](https://one.newrelic.com/alerts-ai) updated\n\n" +
        "**Warning**: Unable to use the default notification format because at least one expected field was " +
        "missing from the incident payload. See [New Relic integration documentation](/integrations/newrelic).\n\n" +
        "**Missing fields**: `issueUrl`, `title`, `priority`, `totalIncidents`, `state`, `createdAt`, `updatedAt`, `alertPolicyNames`, `alertConditionNames`",
    });
  });
});
