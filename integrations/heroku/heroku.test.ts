import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/stages.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import heroku from "./index.js";

describeCases(heroku, new URL("./fixtures/cases", import.meta.url));

function post(form: string): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(heroku, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "heroku" },
    rawBody: Buffer.from(form, "utf8"),
  });
}

describe("heroku: deploys the recorded cases lack", () => {
  it("posts a deploy of one commit", () => {
    expectFixture(heroku, new URL(".", import.meta.url), "deploy__one_commit", {
      topic: "sample-project",
      body:
        "user@example.com deployed version 3eb5f44 of [sample-project](http://sample-project.herokuapp.com):\n\n" +
        "``` quote\n  * Example User: Test commit for Deploy Hook 2\n```",
    });
  });

  it("names a missing form field as Zulip does", () => {
    expect(() => post("app=a&user=u&url=x&git_log=")).toThrow(
      expect.objectContaining({ message: "Missing 'head' argument", code: "REQUEST_VARIABLE_MISSING" }),
    );
  });
});
