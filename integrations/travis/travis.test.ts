import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, expectError, expectFixture, onlyMessage } from "../kit/testing.js";
import travis from "./index.js";

describeCases(travis, new URL("./fixtures/cases", import.meta.url));

const dir = new URL(".", import.meta.url);

/** Posts `build` as Travis does: JSON in the urlencoded form field `payload`. */
function send(build: unknown, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  const form = { payload: JSON.stringify(build) };
  return dispatchWebhook(travis, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "travis", ...params, ...form },
    rawBody: Buffer.from(new URLSearchParams(form).toString()),
    form,
  });
}

const build = (type: string, status: string): Record<string, unknown> => ({
  type,
  status_message: status,
  author_name: "ada",
  compare_url: "https://github.com/acme/web/compare/a...b",
  build_url: "https://travis-ci.com/acme/web/builds/1",
  repository: { name: "web" },
});

describe("travis: build types the recorded cases do not show", () => {
  it("posts cron builds", () => {
    expectFixture(travis, dir, "cron__nightly", {
      topic: "builds",
      body:
        "Author: josh_mandel\nBuild status: Passed :thumbs_up:\n" +
        "Details: [changes](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31), [build log](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257)",
    });
  });

  it("posts API-triggered builds", () => {
    expectFixture(travis, dir, "api__errored", {
      topic: "builds",
      body:
        "Author: josh_mandel\nBuild status: Errored :thumbs_down:\n" +
        "Details: [changes](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31), [build log](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257)",
    });
  });
});

describe("travis: behaviour", () => {
  it("picks the emoji from the status", () => {
    const status = (s: string): string => onlyMessage(send(build("push", s))).body.split("\n")[1] ?? "";
    expect(status("Fixed")).toBe("Build status: Fixed :thumbs_up:");
    expect(status("Still Failing")).toBe("Build status: Still Failing :thumbs_down:");
    expect(status("Pending")).toBe("Build status: Pending :counterclockwise:");
    expect(status("Unknown")).toBe("Build status: Unknown (No emoji specified for status 'Unknown'.)");
  });

  it("ignores pull requests when asked to", () => {
    expect(send(build("pull_request", "Passed"), { ignore_pull_requests: "true" }).kind).toBe("ignored");
    expect(send(build("push", "Passed"), { ignore_pull_requests: "true" }).kind).toBe("messages");
  });

  it("requires the payload field of a form post", () => {
    const caught = expectError(() =>
      dispatchWebhook(travis, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        params: { stream: "travis" },
        rawBody: Buffer.from("other=1"),
        form: { other: "1" },
      }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "payload",
    });
  });
});

describe("travis: Zulip's other tests", () => {
  const message = {
    topic: "builds",
    body:
      "Author: josh_mandel\nBuild status: Passed :thumbs_up:\n" +
      "Details: [changes](https://github.com/hl7-fhir/fhir-svn/compare/6dccb98bcfd9...6c457d366a31), [build log](https://travis-ci.org/hl7-fhir/fhir-svn/builds/92495257)",
  };

  it("posts a push build", () => {
    expectFixture(travis, dir, "push__hl7_fhir", message);
  });

  it("posts nothing for a push build when only_events names pull_request", () => {
    expectFixture(travis, dir, "push__hl7_fhir", null, { only_events: '["pull_request"]' });
  });

  it("posts a push build that only_events names", () => {
    expectFixture(travis, dir, "push__hl7_fhir", message, { only_events: '["push"]' });
  });

  it("posts nothing for a push build that exclude_events names", () => {
    expectFixture(travis, dir, "push__hl7_fhir", null, { exclude_events: '["push"]' });
  });

  it("ignores an include_events parameter, which is no option", () => {
    expectFixture(travis, dir, "pull_request__hl7_fhir", message, { include_events: '["*"]' });
    expectFixture(travis, dir, "push__hl7_fhir", message, { include_events: '["*"]' });
  });
});
