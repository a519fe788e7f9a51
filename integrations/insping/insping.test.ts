import { describe, expect, it } from "@jest/globals";
import { describeCases, expectFixture } from "../kit/testing.js";
import insping from "./index.js";

describeCases(insping, new URL("./fixtures/cases", import.meta.url));

describe("insping: states the recorded cases lack", () => {
  it("posts a website becoming unavailable", () => {
    expectFixture(insping, new URL(".", import.meta.url), "state_change__unavailable", {
      topic: "insping",
      body:
        "State changed to **Unavailable**:\n* **URL**: https://shop.example.com\n" +
        "* **Response time**: 30000 ms\n* **Timestamp**: <time:2018-01-05T08:10:00+00:00>",
    });
  });

  it("is the only event, so only_events does not drop it", () => {
    expect(insping.unfilteredEvents).toEqual(["state_change"]);
  });
});

describe("insping: Zulip's other fixtures", () => {
  it("posts a website that stopped responding, without an HTTP status", () => {
    expectFixture(insping, new URL(".", import.meta.url), "state_change__not_responding", {
      topic: "insping",
      body:
        "State changed to **Not Responding**:\n* **URL**: http://privisus.zulipdev.org:9991\n" +
        "* **Response time**: 942 ms\n* **Timestamp**: <time:2017-12-29T17:13:46+00:00>",
    });
  });
});
