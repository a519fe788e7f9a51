import { describe, expect, it } from "@jest/globals";
import { dispatchWebhookAsync } from "../kit/index.js";
import { describeCases } from "../kit/testing.js";
import template, { templatesFor } from "./index.js";

describeCases(template, new URL("./fixtures/cases", import.meta.url));

function run(config: Record<string, string>, headers: Record<string, string>, body: unknown) {
  return dispatchWebhookAsync(template, {
    headers: { "content-type": "application/json", ...headers },
    params: { stream: "ops" },
    rawBody: Buffer.from(JSON.stringify(body)),
    botConfig: () => config,
  });
}

describe("template: the bot's templates", () => {
  it("renders the plain pair", async () => {
    expect(
      await run(
        { template_topic: "{{ payload.repo }}", template_body: "**{{ payload.who }}** pushed" },
        {},
        { repo: "r", who: "ann" },
      ),
    ).toEqual({ kind: "messages", event: "default", messages: [{ topic: "r", body: "**ann** pushed" }] });
  });

  it("picks the pair of the event header's value, else the plain pair", async () => {
    const config = {
      template_event_header: "X-Event",
      template_topic: "other",
      template_body: "event {{ headers.x_event }}",
      "template_topic.build": "builds",
      "template_body.build": "build {{ payload.n }} {{ headers['x-event'] }}",
    };
    expect(await run(config, { "x-event": "build" }, { n: 7 })).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "builds", body: "build 7 build" }],
    });
    expect(await run(config, { "x-event": "push" }, { n: 7 })).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "other", body: "event push" }],
    });
  });

  it("posts nothing when the body renders empty", async () => {
    expect(
      await run({ template_body: "{% if payload.ok == false %}down{% endif %}" }, {}, { ok: true }),
    ).toEqual({
      kind: "ignored",
      event: "default",
    });
  });

  it("hides credentials among the headers", async () => {
    expect(
      await run(
        { template_body: "[{{ headers.authorization }}{{ headers['x-hub-signature'] }}]" },
        {
          authorization: "Bearer t",
          "x-hub-signature": "sha1=abc",
        },
        {},
      ),
    ).toEqual({ kind: "messages", event: "default", messages: [{ topic: "", body: "[]" }] });
  });

  it("falls back to the payload as JSON without templates", () => {
    expect(templatesFor({}, () => undefined)).toEqual({
      topic: "Webhook",
      body: "```json\n{{ payload | json }}\n```",
    });
  });
});
