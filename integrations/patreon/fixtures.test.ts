import { describe, expect, it } from "@jest/globals";
import { dispatchPayload } from "../kit/testing.js";
import patreon from "./index.js";

/**
 * The request of Zulip's test_ignored_events loop the recorded cases skip (its members:update
 * request of test_ignored_payloads is asserted in patreon.test.ts).
 */
describe("patreon: Zulip's other ignored requests", () => {
  it("posts nothing for pledges:update (Patreon's legacy events)", () => {
    expect(dispatchPayload(patreon, "pledges:update", {}).kind).not.toBe("messages");
  });
});
