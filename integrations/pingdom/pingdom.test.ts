import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectError, expectFixture, onlyMessage } from "../kit/testing.js";
import pingdom from "./index.js";

describeCases(pingdom, new URL("./fixtures/cases", import.meta.url));

const check = (type: string, previous: string, current: string): unknown => ({
  check_id: 12345,
  check_name: "Shop",
  check_type: type,
  check_params: { hostname: "shop.example.com", basic_auth: false },
  previous_state: previous,
  current_state: current,
  long_description: "Timeout (> 30000 ms)",
});

describe("pingdom: states the recorded cases lack", () => {
  it("posts a check coming back up, without the description", () => {
    expectFixture(pingdom, new URL(".", import.meta.url), "HTTPS__down_to_up", {
      topic: "Shop status.",
      body: "Service shop.example.com changed its HTTPS status from DOWN to UP.",
    });
  });

  it("quotes the description only from UP to DOWN", () => {
    expect(
      onlyMessage(dispatchPayload(pingdom, undefined, check("PING", "UNCONFIRMED_DOWN", "DOWN"))).body,
    ).toBe("Service shop.example.com changed its PING status from UNCONFIRMED_DOWN to DOWN.");
  });

  it("filters on the check type", () => {
    expect(
      dispatchPayload(pingdom, undefined, check("DNS", "UP", "DOWN"), { exclude_events: '["DNS"]' }).kind,
    ).toBe("filtered");
  });

  it("rejects a check type Zulip does not post", () => {
    const caught = expectError(() => dispatchPayload(pingdom, undefined, check("TRANSACTION", "UP", "DOWN")));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "TRANSACTION",
      webhook_name: "Pingdom",
    });
  });
});

describe("pingdom: Zulip's other fixtures", () => {
  it("posts an IMAP check coming back up", () => {
    expectFixture(pingdom, new URL(".", import.meta.url), "IMAP__down_to_up", {
      topic: "IMAP check status.",
      body: "Service imap.someurl.com changed its IMAP status from DOWN to UP.",
    });
  });
});
