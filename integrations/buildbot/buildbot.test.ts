import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import { describeCases, dispatchPayload, expectError, expectFixture, onlyMessage } from "../kit/testing.js";
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

describe("buildbot: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);

  it("reports a started build", () => {
    expectFixture(buildbot, dir, "new__buildbot_hello", {
      topic: "buildbot-hello",
      body: "Build [#33](http://exampleurl.com/#builders/1/builds/33) for **runtests** started.",
    });
  });

  it("reports a successful build", () => {
    expectFixture(buildbot, dir, "finished__success", {
      topic: "buildbot-hello",
      body: "Build [#33](http://exampleurl.com/#builders/1/builds/33) (result: success) for **runtests** finished.",
    });
  });

  it("reports a cancelled build", () => {
    expectFixture(buildbot, dir, "finished__cancelled", {
      topic: "zulip/zulip-zapier",
      body: "Build [#10434](https://ci.example.org/#builders/79/builds/307) (result: cancelled) for **AMD64 Ubuntu 18.04 Python 3** finished.",
    });
  });

  it("calls a result code outside Buildbot's list unknown", () => {
    for (const results of [7, -1]) {
      const p = {
        event: "finished",
        buildid: 33,
        buildername: "runtests",
        url: "http://exampleurl.com/#builders/1/builds/33",
        project: "buildbot-hello",
        timestamp: 1553910552,
        results,
      };
      expect(onlyMessage(dispatchPayload(buildbot, undefined, p))).toEqual({
        topic: "buildbot-hello",
        body: "Build [#33](http://exampleurl.com/#builders/1/builds/33) (result: unknown) for **runtests** finished.",
      });
    }
  });

  it("rejects an unsupported event with its name", () => {
    const p = {
      event: "unsupported",
      buildid: 33,
      buildername: "runtests",
      url: "http://exampleurl.com/#builders/1/builds/33",
      project: "buildbot-hello",
    };
    expect(expectError(() => dispatchPayload(buildbot, undefined, p)).toJSON()).toEqual({
      result: "error",
      msg: "The 'unsupported' event isn't currently supported by the Buildbot webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      webhook_name: "Buildbot",
      event_type: "unsupported",
    });
  });
});
