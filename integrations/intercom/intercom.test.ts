import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
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
      dispatchPayload(intercom, undefined, { topic: "article.created", data: { item: {} } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JsonableError);
    expect((caught as JsonableError).toJSON()).toMatchObject({
      result: "error",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "article.created",
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

describe("intercom: tickets", () => {
  const topic = "Ticket #66040342: Unclear user message 'erf' with pending...";

  it("posts a new ticket with its type, state and description", () => {
    expectFixture(intercom, here, "ticket.created__submitted", {
      topic,
      body:
        "New ticket **Unclear user message 'erf' with pending email response** of type Tickets created (state: **Submitted**):\n\n" +
        "``` quote\nUser sent an unclear message 'erf' and was informed that replies will be sent here and to admin@example.com; awaiting further clarification or response.\n```",
    });
  });

  it("says who changed the ticket's state", () => {
    expectFixture(intercom, here, "ticket.state.updated__submitted", {
      topic,
      body: "John Doe changed the ticket state to **Submitted**.",
    });
  });

  it("quotes an admin's note on the ticket", () => {
    expectFixture(intercom, here, "ticket.note.created__note", {
      topic,
      body: "John Doe added a note to the ticket:\n\n``` quote\nagd\n```",
    });
  });

  it("reports an assignment to an admin by id", () => {
    expectFixture(intercom, here, "ticket.admin.assigned__admin", {
      topic,
      body: "John Doe assigned the ticket to admin 9608799.",
    });
  });
});

describe("intercom: contacts, companies and conversations of Intercom's 2.x API", () => {
  const lead = "Lead: Maya Okafor";
  const user = "User: Tomás Ruiz";
  const conversation = "User: Maya Okafor";

  it("posts new and changed leads and users with their details", () => {
    expectFixture(intercom, here, "contact.lead.created__lead", {
      topic: lead,
      body:
        "New lead created:\n* **Name**: Maya Okafor\n* **Email**: maya@example.org\n" +
        "* **Location**: Lagos, Lagos, Nigeria",
    });
    expectFixture(intercom, here, "contact.user.created__user", {
      topic: user,
      body:
        "New user created:\n* **Name**: Tomás Ruiz\n* **Email**: tomas@example.net\n" +
        "* **Location**: Seville, Andalusia, Spain",
    });
    expectFixture(intercom, here, "contact.lead.updated__lead", {
      topic: lead,
      body:
        "The lead's details changed:\n* **Name**: Maya Okafor\n* **Email**: maya@example.org\n" +
        "* **Location**: Lagos, Lagos, Nigeria",
    });
    expectFixture(intercom, here, "contact.user.updated__user", {
      topic: user,
      body:
        "The user's details changed:\n* **Name**: Tomás Ruiz\n* **Email**: tomas@example.net\n" +
        "* **Location**: Unknown",
    });
    expectFixture(intercom, here, "contact.lead.signed_up__lead", {
      topic: "User: Maya Okafor",
      body: "The lead signed up as a user (email: maya@example.org).",
    });
    expectFixture(intercom, here, "contact.email.updated__lead", {
      topic: lead,
      body: "The lead's email is now maya.okafor@example.org.",
    });
  });

  it("says what happened to a contact, naming a deleted one by its external id", () => {
    expectFixture(intercom, here, "contact.deleted__ids_only", {
      topic: "Contact: cust-4471",
      body: "Contact deleted.",
    });
    expectFixture(intercom, here, "contact.archived__lead", { topic: lead, body: "Contact archived." });
    expectFixture(intercom, here, "contact.unarchived__lead", { topic: lead, body: "Contact unarchived." });
    expectFixture(intercom, here, "contact.subscribed__lead", {
      topic: lead,
      body: "Contact subscribed to emails.",
    });
    expectFixture(intercom, here, "contact.unsubscribed__lead", {
      topic: lead,
      body: "Contact unsubscribed from emails.",
    });
  });

  it("posts tags added to and removed from leads and users", () => {
    expectFixture(intercom, here, "contact.lead.tag.created__vip", { topic: lead, body: "Tag `VIP` added." });
    expectFixture(intercom, here, "contact.user.tag.created__vip", { topic: user, body: "Tag `VIP` added." });
    expectFixture(intercom, here, "contact.lead.tag.deleted__vip", {
      topic: lead,
      body: "Tag `VIP` removed.",
    });
    expectFixture(intercom, here, "contact.user.tag.deleted__vip", {
      topic: user,
      body: "Tag `VIP` removed.",
    });
  });

  it("posts companies updated and deleted, and contacts joining and leaving them", () => {
    expectFixture(intercom, here, "company.updated__plan", {
      topic: "Companies",
      body:
        "Company **Harbour Freight Co** updated:\n* **User count**: 7\n* **Monthly spending**: 420\n" +
        "* **Plan**: Growth",
    });
    expectFixture(intercom, here, "company.deleted__ids_only", {
      topic: "Companies",
      body: "Company **harbour-freight** deleted.",
    });
    expectFixture(intercom, here, "company.contact.attached__lead", {
      topic: lead,
      body: "The lead joined the company **Harbour Freight Co**.",
    });
    expectFixture(intercom, here, "company.contact.detached__lead", {
      topic: lead,
      body: "The lead left the company **Harbour Freight Co**.",
    });
  });

  it("posts conversation assignments, bot replies, priorities, participants and ratings", () => {
    expectFixture(intercom, here, "conversation.admin.open.assigned__admin", {
      topic: conversation,
      body: "Priya Raman assigned the open conversation to admin 5521990.",
    });
    expectFixture(intercom, here, "conversation.operator.replied__bot", {
      topic: conversation,
      body: "Fin (bot) replied:\n\n``` quote\nThanks! A teammate will reply within a day.\n```",
    });
    expectFixture(intercom, here, "conversation.priority.updated__priority", {
      topic: conversation,
      body: "Priya Raman marked the conversation as a priority.",
    });
    expectFixture(intercom, here, "conversation.contact.attached__participant", {
      topic: conversation,
      body: "Priya Raman added a participant to the conversation.",
    });
    expectFixture(intercom, here, "conversation.contact.detached__participant", {
      topic: conversation,
      body: "Priya Raman removed a participant from the conversation.",
    });
    expectFixture(intercom, here, "conversation.rating.added__rating", {
      topic: conversation,
      body: "The conversation was rated 4 out of 5.\n\n``` quote\nQuick and kind.\n```",
    });
    expectFixture(intercom, here, "conversation.deleted__ids_only", {
      topic: "Conversation 221104995501842",
      body: "The conversation was deleted.",
    });
  });
});

describe("intercom: the other ticket topics, and a ticket's life in one topic", () => {
  const topic =
    "Ticket #66040342: Unclear user message 'erf' with pending email response".slice(0, 57) + "...";

  it("posts replies, team assignments, participants and closing", () => {
    expectFixture(intercom, here, "ticket.admin.replied__reply", {
      topic,
      body: "John Doe replied to the ticket:\n\n``` quote\nWe have reset your access.\n```",
    });
    expectFixture(intercom, here, "ticket.contact.replied__reply", {
      topic,
      body: "Ana Lima replied to the ticket:\n\n``` quote\nThanks, it works now.\n```",
    });
    expectFixture(intercom, here, "ticket.team.assigned__team", {
      topic,
      body: "John Doe assigned the ticket to team 7102.",
    });
    expectFixture(intercom, here, "ticket.contact.attached__contact", {
      topic,
      body: "John Doe added a contact to the ticket.",
    });
    expectFixture(intercom, here, "ticket.contact.detached__contact", {
      topic,
      body: "John Doe removed a contact from the ticket.",
    });
    expectFixture(intercom, here, "ticket.closed__admin", { topic, body: "John Doe closed the ticket." });
  });

  it("resolves the ticket's topic when it is closed or resolved; its state changes are status-only", () => {
    const lifecycle = (payload: unknown): unknown => {
      const m = onlyMessage(dispatchPayload(intercom, undefined, payload));
      return [m.resolves, m.statusOnly];
    };
    const closed = casePayloadOf("ticket.closed__admin");
    expect(lifecycle(closed)).toEqual([true, true]);
    const state = casePayloadOf("ticket.state.updated__submitted");
    expect(lifecycle(state)).toEqual([undefined, true]);
    const item = (state["data"] as { item: Record<string, unknown> }).item;
    item["ticket_state"] = { type: "ticket_state", category: "resolved", external_label: "Resolved" };
    expect(lifecycle(state)).toEqual([true, true]);
    item["ticket_state"] = { type: "ticket_state", category: "in_progress", external_label: "In progress" };
    const parts = (item["ticket_parts"] as { ticket_parts: Record<string, unknown>[] }).ticket_parts;
    parts[parts.length - 1]!["previous_ticket_state"] = "resolved";
    expect(lifecycle(state)).toEqual([false, true]);
  });
});

/** A fixture of this folder, parsed (a test may edit it). */
function casePayloadOf(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as Record<
    string,
    unknown
  >;
}
