import { describe, it } from "@jest/globals";
import fs from "node:fs";
import { expectFixture } from "../kit/testing.js";
import json from "./index.js";

const here = new URL(".", import.meta.url);

describe("json: Zulip's other fixtures", () => {
  it("pretty-prints GitHub's push__1_commit.json (json_github_push__1_commit) as Zulip does", () => {
    // Zulip's test builds its expectation with Python's json.dumps(payload, indent=2); the
    // expected file was written by that same Python call, not by this integration.
    const expected = fs.readFileSync(
      new URL("./fixtures/default__github_push_1_commit.expected.md", here),
      "utf8",
    );
    expectFixture(json, here, "default__github_push_1_commit", { topic: "JSON", body: expected });
  });

  it("pretty-prints Sentry's event_for_exception_js.json (json_sentry_event_for_exception_js) as Zulip does", () => {
    // Zulip's expectation is json.dumps(payload, indent=2) in a json code block; the expected
    // file was written by that Python call.
    const expected = fs.readFileSync(
      new URL("./fixtures/default__sentry_event_for_exception_js.expected.md", here),
      "utf8",
    );
    expectFixture(json, here, "default__sentry_event_for_exception_js", { topic: "JSON", body: expected });
  });
});
