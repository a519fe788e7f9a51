import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import splunk from "./index.js";

const here = new URL(".", import.meta.url);
const link =
  "http://example.com:8000/app/search/search?q=%7Cloadjob%20rt_scheduler__admin__search__sudo_at_1483557185_2.2%20%7C%20head%201%20%7C%20tail%201&earliest=0&latest=now";
const raw = "Jan  4 11:14:32 myserver sudo: pam_unix(sudo:session): session closed for user root";

describeCases(splunk, new URL("./fixtures/cases", import.meta.url));

describe("splunk: alerts the recorded cases lack", () => {
  it("uses a short search name as the topic", () => {
    expectFixture(splunk, here, "alert__short_search_name", {
      topic: "This search's name isn't that long",
      body:
        "Splunk alert from saved search:\n" +
        `* **Search**: [This search's name isn't that long](${link})\n` +
        "* **Host**: myserver\n* **Source**: `/var/log/auth.log`\n" +
        `* **Raw**: \`${raw}\``,
    });
  });

  it("cuts a long search name to 57 characters and ...", () => {
    expectFixture(splunk, here, "alert__long_search_name", {
      topic: "this-search's-got-47-words-37-sentences-58-words-we-wanna...",
      body:
        "Splunk alert from saved search:\n" +
        "* **Search**: [this-search's-got-47-words-37-sentences-58-words-we-wanna-know-details-of-the-search-time-of-the-search-and-any-other-kind-of-thing-you-gotta-say-pertaining-to-and-about-the-search-I-want-to-know-authenticated-user's-name-and-any-other-kind-of-thing-you-gotta-say]" +
        `(${link})\n` +
        "* **Host**: myserver\n* **Source**: `/var/log/auth.log`\n" +
        `* **Raw**: \`${raw}\``,
    });
  });

  it("names every field Splunk left out instead of failing", () => {
    expectFixture(splunk, here, "alert__missing_everything", {
      topic: "Missing search_name",
      body:
        "Splunk alert from saved search:\n* **Search**: [Missing search_name](Missing results_link)\n" +
        "* **Host**: Missing host\n* **Source**: `Missing source`\n* **Raw**: `Missing _raw`",
    });
  });

  it("cuts a name of exactly 60 characters too (Zulip's >= 60)", () => {
    const name = "x".repeat(60);
    expect(dispatchPayload(splunk, undefined, { search_name: name })).toMatchObject({
      messages: [{ topic: `${"x".repeat(57)}...` }],
    });
  });
});

describe("splunk: Zulip's other fixtures (its search_one_result payload less one field)", () => {
  const cases = new URL("./fixtures/cases", import.meta.url);
  const without = (...path: string[]): Record<string, unknown> => {
    const p = casePayload(cases, "test_splunk_search_one_result");
    const [first, second] = path;
    if (second === undefined) delete p[first ?? ""];
    else delete (p[first ?? ""] as Record<string, unknown>)[second];
    return p;
  };
  const topic = { topic: "New Search Alert" };

  it("says the results link is missing", () => {
    expect(onlyMessage(dispatchPayload(splunk, undefined, without("results_link"), topic))).toEqual({
      topic: "New Search Alert",
      body:
        "Splunk alert from saved search:\n* **Search**: [sudo](Missing results_link)\n" +
        `* **Host**: myserver\n* **Source**: \`/var/log/auth.log\`\n* **Raw**: \`${raw}\``,
    });
  });

  it("says the search name is missing", () => {
    expect(onlyMessage(dispatchPayload(splunk, undefined, without("search_name"), topic))).toEqual({
      topic: "New Search Alert",
      body:
        `Splunk alert from saved search:\n* **Search**: [Missing search_name](${link})\n` +
        `* **Host**: myserver\n* **Source**: \`/var/log/auth.log\`\n* **Raw**: \`${raw}\``,
    });
  });

  it("says the raw event is missing", () => {
    expect(onlyMessage(dispatchPayload(splunk, undefined, without("result", "_raw"), topic))).toEqual({
      topic: "New Search Alert",
      body:
        `Splunk alert from saved search:\n* **Search**: [sudo](${link})\n` +
        "* **Host**: myserver\n* **Source**: `/var/log/auth.log`\n* **Raw**: `Missing _raw`",
    });
  });
});
