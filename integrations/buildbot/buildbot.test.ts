import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import buildbot from "./index.js";

describeCases(buildbot, new URL("./fixtures/cases", import.meta.url));

describe("buildbot: behaviour", () => {
  it("reports a started build under its project", () => {
    expectFixture(buildbot, new URL(".", import.meta.url), "new__started", {
      topic: "zulip",
      body: "Build [#35](http://exampleurl.com/#builders/1/builds/35) for **runtests** started.",
    });
  });

  it("names every Buildbot result", () => {
    const finished = (results: number): string =>
      onlyMessage(
        dispatchPayload(buildbot, undefined, {
          event: "finished",
          buildid: 7,
          buildername: "docs",
          url: "http://ci/#builders/2/builds/7",
          results,
        }),
      ).body;
    expect(finished(0)).toBe(
      "Build [#7](http://ci/#builders/2/builds/7) (result: success) for **docs** finished.",
    );
    expect(finished(6)).toBe(
      "Build [#7](http://ci/#builders/2/builds/7) (result: cancelled) for **docs** finished.",
    );
  });

  it("says unknown when a finished build has no result", () => {
    const p = {
      event: "finished",
      buildid: 8,
      buildername: "docs",
      url: "http://ci/#builders/2/builds/8",
      project: "web",
    };
    expect(onlyMessage(dispatchPayload(buildbot, undefined, p))).toEqual({
      topic: "web",
      body: "Build [#8](http://ci/#builders/2/builds/8) (result: unknown) for **docs** finished.",
    });
  });

  it("rejects other events", () => {
    expect(() => dispatchPayload(buildbot, undefined, { event: "stepStarted" })).toThrow(JsonableError);
  });
});
