import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import trello from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's trello/tests.py).
describe("trello: Zulip's other fixtures", () => {
  it("test_trello_webhook_when_card_was_created", () => {
    expectFixture(trello, here, "creating__card", {
      topic: "Welcome Board",
      body: "TomaszKolek created [New card](https://trello.com/c/5qrgGdD5).",
    });
  });
  it("test_trello_webhook_when_card_was_renamed", () => {
    expectFixture(trello, here, "renaming__card", {
      topic: "Welcome Board",
      body: 'TomaszKolek renamed the card from "Old name" to [New name](https://trello.com/c/r33ylX2Z).',
    });
  });
  it("test_trello_webhook_when_check_item_is_unchecked", () => {
    expectFixture(trello, here, "uncheck__item_on_card_checklist", {
      topic: "Zulip",
      body: "Eeshan Garg unchecked **Tomatoes** in **Checklist** ([Something something](https://trello.com/c/R2thJK3P)).",
    });
  });
  it("test_trello_webhook_when_description_was_added_to_card", () => {
    expectFixture(trello, here, "adding__description_to_card", {
      topic: "Welcome Board",
      body: "Marco Matarazzo set description for [New Card](https://trello.com/c/P2r0z66z) to:\n~~~ quote\nNew Description\n~~~",
    });
  });
  it("test_trello_webhook_when_due_date_was_removed", () => {
    expectFixture(trello, here, "removing__due_date_from_card", {
      topic: "Welcome Board",
      body: "TomaszKolek removed the due date from [Card name](https://trello.com/c/9BduUcVQ).",
    });
  });
  it("test_trello_webhook_when_label_was_removing_from_card", () => {
    expectFixture(trello, here, "removing__label_from_card", {
      topic: "Welcome Board",
      body: 'TomaszKolek removed a green label with "text value" from [New Card](https://trello.com/c/r33ylX2Z).',
    });
  });
  it("test_trello_webhook_when_member_was_added_to_card", () => {
    expectFixture(trello, here, "adding__member_to_card", {
      topic: "Welcome Board",
      body: "TomaszKolek added TomaszKolek to [Card name](https://trello.com/c/9BduUcVQ).",
    });
  });
});
