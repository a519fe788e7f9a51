/**
 * Intercom's API 2.x webhooks through the real endpoint: contacts, companies and conversations
 * (fixtures shaped as Intercom's webhook models of API 2.x) and tickets (Intercom's ticket payloads,
 * trimmed to the fields a ticket event carries), each posted as Intercom sends it, the message read
 * back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const fixtures = new URL("../../integrations/intercom/fixtures/", import.meta.url);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const sub = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: {
      subscriptions: [{ name: "intercom" }],
      principals: [t.users.webhookBot.email, t.users.iago.email],
    },
  });
  expect(sub.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

async function post(fixture: string): Promise<{ topic: string; content: string } | undefined> {
  const body = fs.readFileSync(new URL(`${fixture}.json`, fixtures));
  const res = await fetch(
    `${t.url}/api/v1/external/intercom?stream=intercom&api_key=${t.users.webhookBot.apiKey}`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    },
  );
  expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
    status: 200,
    body: { result: "success", msg: "" },
  });
  const messages = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [["stream", "intercom"]],
      apply_markdown: false,
    },
  });
  const m = (messages.body.messages as { subject: string; content: string }[])[0];
  return m === undefined ? undefined : { topic: m.subject, content: m.content };
}

describe("POST /api/v1/external/intercom: contacts, companies, conversations (API 2.x)", () => {
  it("posts a new lead in the lead's topic", async () => {
    expect(await post("contact.lead.created__lead")).toEqual({
      topic: "Lead: Maya Okafor",
      content:
        "New lead created:\n* **Name**: Maya Okafor\n* **Email**: maya@example.org\n" +
        "* **Location**: Lagos, Lagos, Nigeria",
    });
  });

  it("posts a contact joining a company in the contact's topic", async () => {
    expect(await post("company.contact.attached__lead")).toEqual({
      topic: "Lead: Maya Okafor",
      content: "The lead joined the company **Harbour Freight Co**.",
    });
  });

  it("posts a company's update", async () => {
    expect(await post("company.updated__plan")).toEqual({
      topic: "Companies",
      content:
        "Company **Harbour Freight Co** updated:\n* **User count**: 7\n* **Monthly spending**: 420\n" +
        "* **Plan**: Growth",
    });
  });

  it("posts an assignment and a rating in the conversation's topic", async () => {
    expect(await post("conversation.admin.open.assigned__admin")).toEqual({
      topic: "User: Maya Okafor",
      content: "Priya Raman assigned the open conversation to admin 5521990.",
    });
    expect(await post("conversation.rating.added__rating")).toEqual({
      topic: "User: Maya Okafor",
      content: "The conversation was rated 4 out of 5.\n\n``` quote\nQuick and kind.\n```",
    });
  });

  it("names a deleted conversation by its id", async () => {
    expect(await post("conversation.deleted__ids_only")).toEqual({
      topic: "Conversation 221104995501842",
      content: "The conversation was deleted.",
    });
  });
});

const ticketTopic = "Ticket #66040342: Unclear user message 'erf' with pending email response";

describe("POST /api/v1/external/intercom: tickets", () => {
  it("posts a new ticket with its type, state and description in the ticket's topic", async () => {
    expect(await post("ticket.created__submitted")).toEqual({
      topic: ticketTopic.slice(0, 57) + "...",
      content:
        "New ticket **Unclear user message 'erf' with pending email response** of type Tickets created (state: **Submitted**):\n\n" +
        "``` quote\nUser sent an unclear message 'erf' and was informed that replies will be sent here and to admin@example.com; awaiting further clarification or response.\n```",
    });
  });

  it("says who changed the ticket's state", async () => {
    expect(await post("ticket.state.updated__submitted")).toEqual({
      topic: ticketTopic.slice(0, 57) + "...",
      content: "John Doe changed the ticket state to **Submitted**.",
    });
  });

  it("quotes a note without its HTML", async () => {
    expect(await post("ticket.note.created__note")).toEqual({
      topic: ticketTopic.slice(0, 57) + "...",
      content: "John Doe added a note to the ticket:\n\n``` quote\nagd\n```",
    });
  });

  it("reports an assignment to an admin by the id Intercom sends", async () => {
    expect(await post("ticket.admin.assigned__admin")).toEqual({
      topic: ticketTopic.slice(0, 57) + "...",
      content: "John Doe assigned the ticket to admin 9608799.",
    });
  });
});
