import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import ansibletower from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(ansibletower, new URL("./fixtures/cases", import.meta.url));

describe("ansibletower: notifications the recorded cases lack", () => {
  it("lists each host of a failed playbook run, sorted, with its own result", () => {
    expectFixture(ansibletower, here, "notification__job_failed_multiple_hosts", {
      topic: "System - Updates - Ubuntu",
      body:
        "Job: [#2722 System - Updates - Ubuntu](http://awx.example.co.uk/#/jobs/playbook/2722) failed:\n" +
        "* chat.example.co.uk: Failed\n* devops.example.co.uk: Failed\n* ipa.example.co.uk: Success",
    });
  });

  it("posts a successful inventory update", () => {
    expectFixture(ansibletower, here, "notification__inventory_update_successful", {
      topic: "AWX - Inventory Update",
      body: "Inventory Update: [#2724 AWX - Inventory Update](http://awx.example.co.uk/#/jobs/inventory/2724) was successful.",
    });
  });

  it("names AWX 9 jobs from their URL when friendly_name is absent", () => {
    expectFixture(ansibletower, here, "notification__awx9_project_update", {
      topic: "Demo Project",
      body: "Job: [#12 Demo Project](https://towerhost/#/jobs/project/12) failed.",
    });
  });

  it("ends the sentence when a playbook job has no hosts object", () => {
    expectFixture(ansibletower, here, "notification__awx9_job_without_hosts", {
      topic: "Demo Job Template",
      body: "Job: [#7 Demo Job Template](https://towerhost/#/jobs/playbook/7) failed.",
    });
  });

  it("takes the kind from the URL segment for other URL shapes", () => {
    const payload = {
      id: 3,
      name: "Cleanup",
      url: "https://awx/#/system_job/3/details",
      status: "successful",
    };
    expect(onlyMessage(dispatchPayload(ansibletower, undefined, payload)).body).toBe(
      "system_job: [#3 Cleanup](https://awx/#/system_job/3/details) was successful.",
    );
  });

  it("is never dropped by only_events (Zulip gives it no event type)", () => {
    const payload = {
      id: 3,
      name: "Cleanup",
      url: "https://awx/#/jobs/system/3",
      status: "failed",
      friendly_name: "System Job",
    };
    expect(dispatchPayload(ansibletower, undefined, payload, { only_events: '["nothing"]' }).kind).toBe(
      "messages",
    );
  });
});
