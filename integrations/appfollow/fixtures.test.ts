import { describe, expect, it } from "@jest/globals";
import { casePayload, dispatchPayload, onlyMessage } from "../kit/testing.js";
import appfollow from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describe("appfollow: Zulip's other tests", () => {
  it("lets the URL's topic replace the app's name (test_reviews_with_topic)", () => {
    const payload = casePayload(cases, "test_reviews");
    expect(onlyMessage(dispatchPayload(appfollow, undefined, payload, { topic: "foo" }))).toEqual({
      topic: "foo",
      body:
        "Acme - Group chat\nApp Store, Acme Technologies, Inc.\n★★★★★ United States\n" +
        "**Great for Information Management**\n" +
        "Acme enables me to manage the flow of information quite well. I only wish I could create and edit my Acme Post files in the iOS app.\n" +
        "*by* **Mr RESOLUTIONARY** *for v3.9*\n" +
        "[Permalink](http://appfollow.io/permalink) · [Add tag](http://watch.appfollow.io/add_tag)",
    });
  });
});
