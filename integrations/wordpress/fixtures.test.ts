import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { fixtureRequest } from "../kit/fixtures.js";
import { expectError, expectFixture } from "../kit/testing.js";
import wordpress from "./index.js";

const here = new URL(".", import.meta.url);

/** Zulip's own WordPress fixtures beyond the recorded cases (form bodies), with Zulip's messages. */
describe("wordpress: Zulip's other fixtures", () => {
  it("posts a published post, the URL keeping the body's final newline", () => {
    expectFixture(wordpress, here, "publish_post__post", {
      topic: "WordPress Post",
      body: "New post published:\n* [New Blog Post](http://example.com\n)",
    });
  });

  it("posts a published post whose type was not sent", () => {
    expectFixture(wordpress, here, "publish_post__type_not_provided", {
      topic: "WordPress Post",
      body: "New post published:\n* [New Blog Post](http://example.com\n)",
    });
  });

  it("uses Zulip's placeholders when only the hook was sent", () => {
    expectFixture(wordpress, here, "publish_post__no_data_provided", {
      topic: "WordPress notification",
      body: "New post published:\n* [New WordPress post](WordPress post URL)",
    });
  });

  it("rejects a post without a hook as an unknown action", () => {
    const caught = expectError(() =>
      dispatchWebhook(wordpress, fixtureRequest(wordpress, here, "unknown__no_hook_provided")),
    );
    expect(caught.toJSON()).toMatchObject({ msg: "Unknown WordPress webhook action: WordPress action" });
  });

  it("rejects an empty body as an unknown action", () => {
    const caught = expectError(() =>
      dispatchWebhook(wordpress, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        params: { stream: "wordpress" },
        rawBody: Buffer.from(""),
      }),
    );
    expect(caught.toJSON()).toMatchObject({ msg: "Unknown WordPress webhook action: WordPress action" });
  });
});
