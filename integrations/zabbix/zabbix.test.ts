import { describe, expect, it } from "@jest/globals";
import { WebhookMisconfiguredError } from "../../src/errors.js";
import { dispatchWebhook, fixtureRequest } from "../kit/index.js";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import zabbix from "./index.js";

describeCases(zabbix, new URL("./fixtures/cases", import.meta.url));

describe("zabbix: alerts the recorded cases lack", () => {
  it("posts a recovery", () => {
    expectFixture(zabbix, new URL(".", import.meta.url), "alert__resolved", {
      topic: "db1.example.com",
      body:
        "RESOLVED (High) alert on [db1.example.com](https://zabbix.example.com/tr_events.php?triggerid=14040&eventid=10612):\n" +
        "* Disk space is low on db1.example.com\n* Free disk space on / (percentage) is 42 %",
    });
  });

  it("answers a misconfigured media type (a missing field) with Invalid payload", () => {
    const caught = expectError(() =>
      dispatchPayload(zabbix, undefined, { hostname: "db1.example.com", status: "PROBLEM" }),
    );
    // The pipeline tells the bot's owner (test/integrations/owner-notices.test.ts).
    expect(caught).toBeInstanceOf(WebhookMisconfiguredError);
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "Invalid payload",
      code: "BAD_REQUEST",
    });
  });

  it("tells the bot's owner when the hostname is missing (Zulip's invalid_payload_with_missing_data)", () => {
    const here = new URL(".", import.meta.url);
    const caught = expectError(() =>
      dispatchWebhook(zabbix, fixtureRequest(zabbix, here, "alert__invalid_payload_with_missing_data")),
    );
    expect(caught).toBeInstanceOf(WebhookMisconfiguredError);
    expect(caught.toJSON()).toMatchObject({ msg: "Invalid payload" });
    expect((caught as WebhookMisconfiguredError).notice.trim()).toBe(
      "Hi there! Your bot {bot_name} just received a Zabbix payload that is missing\n" +
        "some data that Zulip requires. This usually indicates a configuration issue\n" +
        "in your Zabbix webhook settings. Please make sure that you set the\n" +
        "script correctly and provide all the required parameters\n" +
        "when configuring the Zabbix webhook. Contact {support_email} if you\n" +
        "need further help!",
    );
  });
});
