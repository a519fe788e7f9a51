import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectError, expectFixture, onlyMessage } from "../kit/testing.js";
import basecamp from "./index.js";

describeCases(basecamp, new URL("./fixtures/cases", import.meta.url));

const here = new URL(".", import.meta.url);

describe("basecamp: kinds the recorded cases lack", () => {
  it("posts a comment on a to-do", () => {
    expectFixture(basecamp, here, "comment__created", {
      topic: "Zulip HQ",
      body:
        "Tomasz created the [comment](https://3.basecamp.com/3688623/buckets/2957043/todos/427055624#__recording_432529700) " +
        "of the task [New task](https://3.basecamp.com/3688623/buckets/2957043/todos/427055624).",
    });
  });

  it("words an archived answer to a question whose title ends in '?' without a period", () => {
    expectFixture(basecamp, here, "question_answer__archived", {
      topic: "Zulip HQ",
      body:
        "Tomasz archived the [answer](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747/answers/2017-03-16#__recording_432529636) " +
        "of the question [Question?](https://3.basecamp.com/3688623/buckets/2957043/questions/432527747)",
    });
  });

  it("words an activated document and adds no period after a title ending in punctuation", () => {
    expectFixture(basecamp, here, "document__active", {
      topic: "Zulip HQ",
      body: "Tomasz activated the document [Why we ship?](https://3.basecamp.com/3688623/buckets/2957043/documents/434455988)",
    });
  });

  const list = (kind: string): unknown => ({
    kind,
    creator: { name: "Ann" },
    recording: {
      title: "Launch",
      app_url: "https://3.basecamp.com/1/buckets/2/todolists/3",
      bucket: { name: "Web" },
    },
  });

  it("words a renamed to-do list", () => {
    expect(onlyMessage(dispatchPayload(basecamp, undefined, list("todolist_name_changed")))).toEqual({
      topic: "Web",
      body: "Ann changed name of the todo list [Launch](https://3.basecamp.com/1/buckets/2/todolists/3).",
    });
  });

  it("filters on Zulip's event names (the recording type)", () => {
    expect(
      dispatchPayload(basecamp, undefined, list("todolist_created"), { only_events: '["todo"]' }).kind,
    ).toBe("filtered");
    expect(
      dispatchPayload(basecamp, undefined, list("todolist_created"), { only_events: '["todolist"]' }).kind,
    ).toBe("messages");
  });

  it("rejects a kind Zulip does not post, naming the kind", () => {
    const caught = expectError(() => dispatchPayload(basecamp, undefined, list("upload_created")));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "upload_created",
      webhook_name: "Basecamp",
    });
  });
});
