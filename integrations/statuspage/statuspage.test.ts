import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import statuspage from "./index.js";

describeCases(statuspage, new URL("./fixtures/cases", import.meta.url));

describe("statuspage: events the recorded cases lack", () => {
  it("posts a component status change", () => {
    expectFixture(statuspage, new URL(".", import.meta.url), "component__status_changed", {
      topic: "Database: All Systems Operational",
      body: "**Database** has changed status from **operational** to **major_outage**.",
    });
  });

  it("filters on incident / component", () => {
    const out = dispatchPayload(
      statuspage,
      undefined,
      {
        page: { status_description: "Minor Service Outage" },
        component: { name: "API" },
        component_update: { old_status: "operational", new_status: "degraded_performance" },
      },
      { only_events: '["incident"]' },
    );
    expect(out.kind).toBe("filtered");
  });

  it("answers a body that is neither an incident nor a component as Zulip does", () => {
    const caught = expectError(() => dispatchPayload(statuspage, undefined, {}));
    expect(caught.httpStatus).toBe(400);
    expect(caught.toJSON()).toMatchObject({
      result: "error",
      msg: "Unable to parse request: Did Statuspage generate this event?",
    });
  });
});

describe("statuspage: Zulip's other fixtures", () => {
  it("posts a component going under maintenance", () => {
    expectFixture(statuspage, new URL(".", import.meta.url), "component__status_update", {
      topic: "Database component: Service Under Maintenance",
      body: "**Database component** has changed status from **operational** to **under_maintenance**.",
    });
  });
});
