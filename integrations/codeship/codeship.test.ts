import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import codeship from "./index.js";

describeCases(codeship, new URL("./fixtures/cases", import.meta.url));

describe("codeship: behaviour", () => {
  const build = (status: string): unknown => ({
    build: {
      build_url: "https://app.codeship.com/projects/1/builds/2",
      status,
      project_name: "acme/web",
      committer: "ada",
      branch: "main",
    },
  });

  it("words a succeeded build and any other status", () => {
    expect(onlyMessage(dispatchPayload(codeship, undefined, build("success")))).toEqual({
      topic: "acme/web",
      body: "[Build](https://app.codeship.com/projects/1/builds/2) triggered by ada on main branch succeeded.",
    });
    expect(onlyMessage(dispatchPayload(codeship, undefined, build("stopped"))).body).toBe(
      "[Build](https://app.codeship.com/projects/1/builds/2) triggered by ada on main branch has stopped status.",
    );
  });

  it("needs the build object", () => {
    expect(() => dispatchPayload(codeship, undefined, { project: 1 })).toThrow(
      "Missing key 'build' in JSON payload",
    );
  });
});

describe("codeship: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);

  it("reports a succeeded build", () => {
    expectFixture(codeship, dir, "build__success", {
      topic: "codeship/docs",
      body: "[Build](https://www.codeship.com/projects/10213/builds/973711) triggered by beanieboi on master branch succeeded.",
    });
  });

  it("names any other status", () => {
    expectFixture(codeship, dir, "build__other_status", {
      topic: "codeship/docs",
      body: "[Build](https://www.codeship.com/projects/10213/builds/973711) triggered by beanieboi on master branch has some_other_status status.",
    });
  });
});
