import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import front from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's front/tests.py).
describe("front: Zulip's other fixtures", () => {
  it("test_conversation_archived", () => {
    expectFixture(front, here, "conversation__archived", {
      topic: "cnv_keo696",
      body: "Archived by **Leela Turanga**.",
    });
  });
  it("test_conversation_assigned", () => {
    expectFixture(front, here, "conversation__assigned", {
      topic: "cnv_keocka",
      body: "**Leela Turanga** assigned **Bender Rodriguez**.",
    });
  });
  it("test_conversation_assigned_by_rule", () => {
    expectFixture(front, here, "rule__zulip", {
      topic: "cnv_keocka",
      body: "**'Important deliveries' rule** assigned **Bender Rodriguez**.",
    });
  });
  it("test_conversation_reopened", () => {
    expectFixture(front, here, "conversation__reopened", {
      topic: "cnv_keo696",
      body: "Reopened by **Leela Turanga**.",
    });
  });
  it("test_conversation_restored", () => {
    expectFixture(front, here, "conversation__restored", {
      topic: "cnv_keo696",
      body: "Restored by **Leela Turanga**.",
    });
  });
  it("test_inbound_message", () => {
    expectFixture(front, here, "inbound__message", {
      topic: "2x9c5v",
      body: "[Inbound message](https://app.frontapp.com/open/msg_1176r8y) from **calculon@momsbot.com** to **support@planet-express.com**:\n```quote\n*Subject*: Cancellation Request for Subscription #SUB-67890\n```",
    });
  });
  it("test_mention", () => {
    expectFixture(front, here, "mention__zulip", {
      topic: "cnv_keocka",
      body: "**Leela Turanga** left a comment:\n```quote\n@bender Could you take it from here?\n```",
    });
  });
  it("test_outbound_message", () => {
    expectFixture(front, here, "outbound__message", {
      topic: "cnv_keo696",
      body: "[Outbound message](https://app.frontapp.com/open/msg_1176ie2) from **support@planet-express.com** to **calculon@momsbot.com**:\n```quote\n*Subject*: Your next delivery is on Epsilon 96Z\n```",
    });
  });
});
