import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import gitea from "./index.js";

/**
 * Gitea payloads of events the recorded cases do not show (fixtures/<X-Gitea-Event>__<variant>.json).
 * Expected topics and bodies follow Zulip's Gitea (Gogs) messages.
 */
const here = new URL(".", import.meta.url);

describe("gitea: fixtures", () => {
  it("announces a new branch", () => {
    expectFixture(gitea, here, "create__branch", {
      topic: "test / feature",
      body: "kostekIV created [feature](https://try.gitea.io/kostekIV/test/src/feature) branch.",
    });
  });

  it("announces a published release", () => {
    expectFixture(gitea, here, "release__published", {
      topic: "test / v1.0 First release",
      body: "kostekIV published release [First release](https://try.gitea.io/kostekIV/test) for tag v1.0.",
    });
  });
});
