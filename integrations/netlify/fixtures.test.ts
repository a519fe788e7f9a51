import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import netlify from "./index.js";

const here = new URL(".", import.meta.url);

describe("netlify: Zulip's other fixtures", () => {
  it("posts a failed deploy with Netlify's error message", () => {
    expectFixture(netlify, here, "deploy_failed__zulip", {
      topic: "master",
      body:
        "The build [objective-jepsen-35fbb2](http://objective-jepsen-35fbb2.netlify.com) " +
        "on branch master failed during stage 'building site': Build script returned non-zero exit code: 127",
    });
  });
});
