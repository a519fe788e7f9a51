import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import basecamp from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's basecamp/tests.py).
describe("basecamp: Zulip's other fixtures", () => {
  it("test_basecamp_makes_comment_created", () => {
    expectFixture(basecamp, here, "comment__created_zulip", {
      topic: "Zulip HQ",
      body: "Tomasz created the [comment](https://3.basecamp.com/3688623/buckets/2957043/todos/427055624#__recording_427058780) of the task [New task](https://3.basecamp.com/3688623/buckets/2957043/todos/427055624).",
    });
  });
  it("test_basecamp_makes_doc_active", () => {
    expectFixture(basecamp, here, "doc__active", {
      topic: "Event Planning - Annual Conference",
      body: "Tomasz activated the document [Sponsorship Package Outline](https://3.basecamp.com/3688623/buckets/2957043/documents/432522214).",
    });
  });
  it("test_basecamp_makes_doc_changed_title", () => {
    expectFixture(basecamp, here, "doc__title_changed", {
      topic: "Zulip HQ",
      body: "Tomasz changed title of the document [New doc edit](https://3.basecamp.com/3688623/buckets/2957043/documents/432522214).",
    });
  });
  it("test_basecamp_makes_doc_created", () => {
    expectFixture(basecamp, here, "doc__created", {
      topic: "Zulip HQ",
      body: "Tomasz created the document [new doc](https://3.basecamp.com/3688623/buckets/2957043/documents/434455988).",
    });
  });
  it("test_basecamp_makes_doc_trashed", () => {
    expectFixture(basecamp, here, "doc__trashed", {
      topic: "Zulip HQ",
      body: "Tomasz trashed the document [new doc](https://3.basecamp.com/3688623/buckets/2957043/documents/434455988).",
    });
  });
  it("test_basecamp_makes_doc_unarchived", () => {
    expectFixture(basecamp, here, "doc__unarchive", {
      topic: "Zulip HQ",
      body: "Tomasz unarchived the document [new doc](https://3.basecamp.com/3688623/buckets/2957043/documents/434455988).",
    });
  });
  it("test_basecamp_makes_message_content_change", () => {
    expectFixture(basecamp, here, "message__content_changed", {
      topic: "Zulip HQ",
      body: "Tomasz changed content of the message [Message Title new](https://3.basecamp.com/3688623/buckets/2957043/messages/430680605).",
    });
  });
  it("test_basecamp_makes_question_created", () => {
    expectFixture(basecamp, here, "question__created", {
      topic: "Zulip HQ",
      body: "Tomasz created the question [Question](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747).",
    });
  });
  it("test_basecamp_makes_question_unarchived", () => {
    expectFixture(basecamp, here, "question__unarchived", {
      topic: "Zulip HQ",
      body: "Tomasz unarchived the question [Question](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747).",
    });
  });
  it("test_basecamp_makes_questions_answer_created", () => {
    expectFixture(basecamp, here, "questions__answer_created", {
      topic: "Zulip HQ",
      body: "Tomasz created the [answer](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747/answers/2017-03-16#__recording_432529636) of the question [Question](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747).",
    });
  });
  it("test_basecamp_makes_todo_created", () => {
    expectFixture(basecamp, here, "todo__created", {
      topic: "Zulip HQ",
      body: "Tomasz created the todo task [New task](https://3.basecamp.com/3688623/buckets/2957043/todos/427055624).",
    });
  });
  it("test_basecamp_makes_todo_list_modified", () => {
    expectFixture(basecamp, here, "todo__list_name_changed", {
      topic: "Zulip HQ",
      body: "Tomasz changed name of the todo list [NEW Name TO DO LIST](https://3.basecamp.com/3688623/buckets/2957043/todolists/427050190).",
    });
  });
});
