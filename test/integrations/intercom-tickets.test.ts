/**
 * Intercom tickets through the real endpoint: each fixture (Intercom's ticket payloads, trimmed to
 * the fields a ticket event carries) posted as Intercom sends it, the message read back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const fixtures = new URL("../../integrations/intercom/fixtures/", import.meta.url);
const topic = "Ticket #66040342: Unclear user message 'erf' with pending email response";

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

describe("POST /api/v1/external/intercom: tickets", () => {
  it("posts a new ticket with its type, state and description in the ticket's topic", async () => {
    expect(await post("ticket.created__submitted")).toEqual({
      topic: topic.slice(0, 57) + "...",
      content:
        "New ticket **Unclear user message 'erf' with pending email response** of type Tickets created (state: **Submitted**):\n\n" +
        "``` quote\nUser sent an unclear message 'erf' and was informed that replies will be sent here and to admin@example.com; awaiting further clarification or response.\n```",
    });
  });

  it("says who changed the ticket's state", async () => {
    expect(await post("ticket.state.updated__submitted")).toEqual({
      topic: topic.slice(0, 57) + "...",
      content: "John Doe changed the ticket state to **Submitted**.",
    });
  });

  it("quotes a note without its HTML", async () => {
    expect(await post("ticket.note.created__note")).toEqual({
      topic: topic.slice(0, 57) + "...",
      content: "John Doe added a note to the ticket:\n\n``` quote\nagd\n```",
    });
  });

  it("reports an assignment to an admin by the id Intercom sends", async () => {
    expect(await post("ticket.admin.assigned__admin")).toEqual({
      topic: topic.slice(0, 57) + "...",
      content: "John Doe assigned the ticket to admin 9608799.",
    });
  });
});
