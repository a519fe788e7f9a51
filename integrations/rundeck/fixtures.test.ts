import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import rundeck from "./index.js";

const here = new URL(".", import.meta.url);

describe("rundeck: Zulip's other fixtures", () => {
  it("posts a failed execution", () => {
    expectFixture(rundeck, here, "failed__zulip_failure", {
      topic: "Global Log Filter Usage",
      body:
        "[Global Log Filter Usage](http://localhost:4440/project/welcome-project-community/job/show/a0296d93-4b10-48d7-8b7d-86ad3f603b85) " +
        "execution [#7](http://localhost:4440/project/welcome-project-community/execution/show/7) " +
        "for welcome-project-community has failed. :cross_mark:",
    });
  });
});
