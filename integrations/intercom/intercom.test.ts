import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import intercom from "./index.js";
import { stripTags } from "./strip-tags.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(intercom, cases);

describe("intercom: events the recorded cases do not show", () => {
  it("posts a new company", () => {
    expectFixture(intercom, here, "company.created__new_company", {
      topic: "Companies",
      body: "New company **Kandra Labs** created:\n* **User count**: 1\n* **Monthly spending**: 0",
    });
  });

  it("posts a contact who signed up", () => {
    expectFixture(intercom, here, "contact.signed_up__lead_converted", {
      topic: "User: Lilac Raindrop from St. John's",
      body:
        "Contact signed up:\n* **Email**: iago@zulip.com\n" +
        "* **Location**: St. John's, Newfoundland and Labrador, Canada",
    });
  });

  it("posts a visitor who signed up like a contact", () => {
    expectFixture(intercom, here, "visitor.signed_up__visitor", {
      topic: "User: Green Lamp from Oslo",
      body: "Contact signed up:\n* **Email**: othello@zulip.com\n* **Location**: Oslo, Oslo, Norway",
    });
  });

  it("posts tags added to and removed from a contact", () => {
    expectFixture(intercom, here, "contact.tag.created__developer", {
      topic: "Contact: Eeshan Garg",
      body: "Contact tagged with the `developer` tag.",
    });
    expectFixture(intercom, here, "contact.tag.deleted__developer", {
      topic: "Contact: Eeshan Garg",
      body: "The tag `developer` was removed from the contact.",
    });
  });

  it("quotes an admin's note without its HTML", () => {
    expectFixture(intercom, here, "conversation.admin.noted__note", {
      topic: "Lead: Eeshan Garg",
      body: "Cordelia, Lear's daughter added a note to the conversation:\n\n``` quote\nTalk to Tim about this user's query.\n```",
    });
  });

  it("posts events and user changes", () => {
    expectFixture(intercom, here, "event.created__invited_friend", {
      topic: "Events",
      body: "New event **invited-friend** created.",
    });
    expectFixture(intercom, here, "user.deleted__deleted", { topic: "User: Iago", body: "User deleted." });
    expectFixture(intercom, here, "user.email.updated__new_email", {
      topic: "User: Iago",
      body: "User's email was updated to new-email@zulip.com.",
    });
  });
});

describe("intercom: payloads with fields left out", () => {
  it("names a contact by its email when it has no name or pseudonym, and skips a missing location", () => {
    const p = casePayload(cases, "test_contact_created") as { data: { item: Record<string, unknown> } };
    delete p.data.item["pseudonym"];
    delete p.data.item["location_data"];
    expect(onlyMessage(dispatchPayload(intercom, undefined, p))).toEqual({
      topic: "Contact: aaron@zulip.com",
      body: "New contact created:\n* **Name (or pseudonym)**: Unknown\n* **Email**: aaron@zulip.com\n* **Location**: Unknown",
    });
  });

  it("says who closed a conversation that has no named assignee", () => {
    const p = casePayload(cases, "test_conversation_admin_closed") as {
      data: { item: Record<string, unknown> };
    };
    p.data.item["assignee"] = { type: "nobody_admin", id: null };
    expect(onlyMessage(dispatchPayload(intercom, undefined, p))).toEqual({
      topic: "Lead: Eeshan Garg",
      body: "An admin closed the conversation.",
    });
  });

  it("reads the conversation's first contact and source (API 2.x shape)", () => {
    const p = {
      topic: "conversation.user.created",
      data: {
        item: {
          type: "conversation",
          source: { type: "conversation", body: "<p>Need help &amp; fast</p>" },
          contacts: {
            type: "contact.list",
            contacts: [{ type: "contact", id: "1", email: "a@example.com" }],
          },
        },
      },
    };
    expect(onlyMessage(dispatchPayload(intercom, undefined, p))).toEqual({
      topic: "Contact: a@example.com",
      body: "a@example.com initiated a conversation:\n\n``` quote\nNeed help & fast\n```",
    });
  });
});

const bot = { id: 8, email: "intercom-bot@example.com", fullName: "Intercom Bot" };

describe("intercom: stored text", () => {
  it("cuts a long contact name in the topic to 60 characters", () => {
    const p = casePayload(cases, "test_user_created") as { data: { item: Record<string, unknown> } };
    p.data.item["name"] = "Aaron Smith of the Very Long Company Name Incorporated Worldwide";
    expect(onlyMessage(dispatchPayload(intercom, undefined, p)).topic).toBe(
      "User: Aaron Smith of the Very Long Company Name Incorpora...",
    );
  });
});

describe("intercom: routing", () => {
  it("stays silent on ping and rejects an unknown topic", () => {
    expect(dispatchPayload(intercom, undefined, { topic: "ping", data: { item: {} } }).kind).toBe("ignored");
    let caught: unknown;
    try {
      dispatchPayload(intercom, undefined, { topic: "ticket.created", data: { item: {} } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JsonableError);
    expect((caught as JsonableError).toJSON()).toMatchObject({
      result: "error",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "ticket.created",
      webhook_name: "Intercom",
    });
  });

  it("filters with only_events", () => {
    const p = casePayload(cases, "test_user_created");
    expect(dispatchPayload(intercom, undefined, p, { only_events: '["conversation.*"]' }).kind).toBe(
      "filtered",
    );
    expect(dispatchPayload(intercom, undefined, p, { only_events: '["user.created"]' }).kind).toBe(
      "messages",
    );
  });

  it("answers Intercom's HEAD check of the URL", () => {
    const answer = intercom.handshake?.({ method: "HEAD", params: {}, header: () => undefined, bot });
    expect(answer).toEqual({ status: 200, body: { result: "success", msg: "" } });
    expect(
      intercom.handshake?.({ method: "POST", params: {}, header: () => undefined, bot }),
    ).toBeUndefined();
  });
});

// HMAC-SHA1 with the secret "It's a Secret to Everybody", computed with `openssl dgst -sha1 -hmac`.
describeSignature(intercom, {
  title: "X-Hub-Signature",
  header: "x-hub-signature",
  secret: "It's a Secret to Everybody",
  body: '{"type":"notification_event","topic":"ping","data":{"item":{"type":"ping","message":"Hello"}}}',
  signature: "sha1=ffcb00cfda42cf7581e8d22a35fb996226158266",
  rejects: [undefined],
});

describe("intercom: stripTags", () => {
  it("drops tags and comments and decodes references", () => {
    expect(stripTags("<p>a &lt;b&gt; <!-- c --><br/>&#x263A; &#9731; &bogus;</p>")).toBe(
      "a <b> \u263a \u2603 &bogus;",
    );
  });
});
