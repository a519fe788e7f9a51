import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import ansibletower from "./index.js";

const here = new URL(".", import.meta.url);

/** Zulip's own AWX / Ansible Tower fixtures beyond the recorded cases, with Zulip's messages. */
const ZULIP: [string, { topic: string; body: string }][] = [
  [
    "notification__adhoc_command_successful",
    {
      topic: "shell: uname -r",
      body: "AdHoc Command: [#2726 shell: uname -r](http://awx.example.co.uk/#/jobs/command/2726) was successful.",
    },
  ],
  [
    "notification__system_job_successful",
    {
      topic: "Cleanup Job Details",
      body: "System Job: [#2721 Cleanup Job Details](http://awx.example.co.uk/#/jobs/system/2721) was successful.",
    },
  ],
  [
    "notification__job_failed",
    {
      topic: "System - Updates - Ubuntu",
      body:
        "Job: [#2722 System - Updates - Ubuntu](http://awx.example.co.uk/#/jobs/playbook/2722) failed:\n" +
        "* chat.example.co.uk: Failed",
    },
  ],
];

describe("ansibletower: Zulip's other fixtures", () => {
  for (const [name, expected] of ZULIP) {
    it(`posts ${name} as Zulip does`, () => {
      expectFixture(ansibletower, here, name, expected);
    });
  }
});
