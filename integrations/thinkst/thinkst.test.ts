import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import thinkst from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(thinkst, new URL("./fixtures/cases", import.meta.url));

describe("thinkst: incidents the recorded cases lack", () => {
  it("posts a consolidated port scan", () => {
    expectFixture(thinkst, here, "canary__consolidated_port_scan", {
      topic: "canary alert - foo-bar",
      body:
        "**:alert: Canary *foo-bar* has been triggered!**\n\n" +
        "A portscan has been done on several of your canaries by the host 1.1.1.1.\n\n" +
        "**Incident ID:** `3f25fec9e18c7673dcc468800b7af0a6`\n**Kind:** Consolidated Network Port Scan\n" +
        "**Timestamp:** <time:2020-07-20T16:18:40+00:00>\n**Canary IP:** `1.1.1.1`\n" +
        "**Canary location:** dining room\n**Source IP:** `1.1.1.1`\n**Reverse DNS:** `attacker.local`\n" +
        "**Incident:** Consolidated Network Port Scan\n**Source:** 1.1.1.1\n**Targets:** 1.0.0.1, 1.0.0.2\n" +
        "**Background Context:** You have had 8 incidents from 1.0.0.1 previously.",
    });
  });

  it("puts masked values (passwords) in backticks and skips an empty reverse DNS", () => {
    expectFixture(thinkst, here, "canary__http_login", {
      topic: "canary alert - foo-bar",
      body:
        "**:alert: Canary *foo-bar* has been triggered!**\n\n" +
        "HTTP Login Attempt has been detected against one of your Canaries (foo-bar) at 1.1.1.1.\n\n" +
        "**Incident ID:** `1ef86f5cf4090a5252c6f453c5cd46bd`\n**Kind:** HTTP Login Attempt\n" +
        "**Timestamp:** <time:2020-07-20T14:55:45+00:00>\n**Canary IP:** `1.1.1.1`\n" +
        "**Canary location:** dining room\n**Source IP:** `1.1.1.1`\n**Username:** regular\n" +
        "**Password:** `*******`\n" +
        "**User-Agent:** Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15\n" +
        "**Background Context:** You have had 14 incidents from 1.1.1.1 previously.",
    });
  });

  it("lists a Word document token's additional details in the order sent (Zulip's canarytoken_msword)", () => {
    expectFixture(thinkst, here, "canarytoken__msword", {
      topic: "canarytoken alert - test document",
      body:
        "**:alert: Canarytoken *test document* has been triggered!**\n\n" +
        "A MS Word .docx Document Canarytoken has been triggered over doc-msword by the source IP 1.1.1.1.\n\n" +
        "**Incident ID:** `db6f9b5528c6c6c385cb3bb63f5949c8`\n**Token:** `dbwx4d68flwh2u5zku56nogu6`\n" +
        "**Kind:** MS Word .docx Document\n**Timestamp:** <time:2020-07-20T14:40:15+00:00>\n" +
        "**Triggered:** 5 times\n**Accept:** `*/*`\n**Accept-Encoding:** gzip, deflate\n" +
        "**Accept-Language:** en-gb\n" +
        "**Background Context:** You have had 21 incidents from 1.1.1.1 previously.\n" +
        "**Connection:** keep-alive\n**Dst Port:** 80\n" +
        "**User-Agent:** Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
    });
  });

  it("omits every optional field a token incident lacks and says 'time' for one trigger", () => {
    expectFixture(thinkst, here, "canarytoken__single_trigger_minimal", {
      topic: "canarytoken alert - prod db credentials",
      body:
        "**:alert: Canarytoken *prod db credentials* has been triggered!**\n\n" +
        "An HTTP Canarytoken has been triggered by the source IP 203.0.113.9.\n\n" +
        "**Timestamp:** <time:2024-03-01T08:00:01+00:00>\n**Triggered:** 1 time",
    });
  });

  it("shows a timestamp it cannot read as sent", () => {
    const payload = { Intro: "x", CanaryName: "c", AlertType: "CanaryIncident", Timestamp: "yesterday" };
    expect(onlyMessage(dispatchPayload(thinkst, undefined, payload)).body).toBe(
      "**:alert: Canary *c* has been triggered!**\n\nx\n\n**Timestamp:** yesterday",
    );
  });

  it("accepts a trigger count sent as text", () => {
    const payload = { Intro: "x", Reminder: "r", AlertType: "CanarytokenIncident", Triggered: "3" };
    expect(onlyMessage(dispatchPayload(thinkst, undefined, payload)).body).toBe(
      "**:alert: Canarytoken *r* has been triggered!**\n\nx\n\n**Triggered:** 3 times",
    );
  });

  it("is never dropped by only_events (Zulip gives it no event type)", () => {
    const payload = { Intro: "x", CanaryName: "c", AlertType: "CanaryIncident" };
    expect(dispatchPayload(thinkst, undefined, payload, { only_events: '["nothing"]' }).kind).toBe(
      "messages",
    );
  });
});
