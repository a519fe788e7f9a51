import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import wekan from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's wekan/tests.py).
describe("wekan: Zulip's other fixtures", () => {
  it("test_add_label_message", () => {
    expectFixture(wekan, here, "add__label", {
      topic: "Wekan Notification",
      body: 'JohnFish Added label Language to card "Markdown & emojis" at list "Design" at swimlane "Default" at board "Bucket List".\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/TMmjFnQGuZPsbjXzS)',
    });
  });
  it("test_archived_list_message", () => {
    expectFixture(wekan, here, "archived__list", {
      topic: "Wekan Notification",
      body: 'JohnFish List "Design" at swimlane "Default" at board "Bucket List" moved to Archive.\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list)',
    });
  });
  it("test_checked_item_message", () => {
    expectFixture(wekan, here, "checked__item", {
      topic: "Wekan Notification",
      body: 'JohnFish checked To do of checklist "To do" at card "Markdown and emoji\'s" at list "Design" at swimlane "Default" at board "bucket-list".\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/pMtu7kPZvMuhhC4hL)',
    });
  });
  it("test_create_list_message", () => {
    expectFixture(wekan, here, "create__list", {
      topic: "Wekan Notification",
      body: 'JohnFish added list "Testing & Maintenance" to board "Bucket List".\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list)',
    });
  });
  it("test_join_member_message", () => {
    expectFixture(wekan, here, "join__member", {
      topic: "Wekan Notification",
      body: 'JohnFish added member kokoboss to card "Markdown & emojis" at list "Design" at swimlane "Default" at board "Bucket List".\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/TMmjFnQGuZPsbjXzS)',
    });
  });
  it("test_removed_checklist_message", () => {
    expectFixture(wekan, here, "removed__checklist", {
      topic: "Wekan Notification",
      body: 'JohnFish removed checklist "To do" from card "Markdown and emoji\'s" at list "Design" at swimlane "Default" at board "Bucket List".\n\n[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/pMtu7kPZvMuhhC4hL)',
    });
  });
});
