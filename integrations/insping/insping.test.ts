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
