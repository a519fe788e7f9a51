import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, expectError } from "../kit/testing.js";
import wordpress from "./index.js";

describeCases(wordpress, new URL("./fixtures/cases", import.meta.url));

function post(body: string, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(wordpress, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "wordpress", ...params },
    rawBody: Buffer.from(body),
  });
}

describe("wordpress: hooks the recorded cases lack", () => {
  it("posts a published post in the default topic", () => {
    expect(
      post(
        "hook=publish_post&post_type=post&post_title=Hello%20world&post_url=https%3A%2F%2Fblog.example.com%2Fhello",
      ),
    ).toMatchObject({
      kind: "messages",
      messages: [
        {
          topic: "WordPress notification",
          body: "New post published:\n* [Hello world](https://blog.example.com/hello)",
        },
      ],
    });
  });

  it("uses Zulip's placeholders when the fields were not configured", () => {
    expect(post("hook=publish_post")).toMatchObject({
      messages: [
        {
          topic: "WordPress notification",
          body: "New post published:\n* [New WordPress post](WordPress post URL)",
        },
      ],
    });
  });

  it("filters on the hook", () => {
    expect(post("hook=publish_page&post_title=About", { only_events: '["publish_post"]' }).kind).toBe(
      "filtered",
    );
  });

  it.each([
    [
      "an unknown hook",
      "hook=user_register&display_name=Ann",
      "Unknown WordPress webhook action: user_register",
    ],
    ["a missing hook", "post_title=Hello", "Unknown WordPress webhook action: WordPress action"],
  ])("answers %s as Zulip does", (_label, body, msg) => {
    const caught = expectError(() => post(body));
    expect(caught.toJSON()).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
  });
});
