import { describe, expect, it } from "@jest/globals";
import type { JsonableError } from "../../src/errors.js";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, describeSignature } from "../kit/testing.js";
import sentry from "./index.js";

describeCases(sentry, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(sentry, {
    headers: { "content-type": "application/json" },
    params: { stream: "sentry", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

function unsupportedEvent(payload: unknown): unknown {
  try {
    post(payload);
  } catch (err) {
    return (err as JsonableError).toJSON();
  }
  return undefined;
}

describe("sentry: formats the recorded cases lack", () => {
  it("posts a JavaScript exception with its traceback from the webhook plugin", () => {
    const payload = {
      project_name: "web",
      url: "https://acme.sentry.io/issues/42/?referrer=webhooks_plugin",
      level: "error",
      event: {
        event_id: "e1",
        title: "TypeError: x is undefined",
        platform: "javascript",
        version: "7",
        level: "error",
        timestamp: 1700000000.25,
        metadata: { filename: "app.js" },
        exception: {
          values: [
            {
              stacktrace: {
                frames: [
                  {
                    filename: "app.js",
                    pre_context: ["function f(x) {", ""],
                    context_line: "  return x.y;",
                    post_context: ["}"],
                  },
                ],
              },
            },
          ],
        },
      },
    };
    expect(post(payload)).toEqual({
      kind: "messages",
      event: "event",
      messages: [
        {
          topic: "TypeError: x is undefined",
          body:
            "**New exception:** [TypeError: x is undefined](https://acme.sentry.io/issues/42/events/e1/)\n" +
            "```quote\n**level:** error\n**timestamp:** <time:2023-11-14T22:13:20+00:00>\n**filename:** app.js\n```\n\n" +
            "Traceback:\n```javascript\n     function f(x) {\n\n--->   return x.y;\n     }\n```",
        },
      ],
    });
  });

  it("rejects an issue action it does not know", () => {
    const payload = { action: "archived", actor: { name: "Ann" }, data: { issue: { title: "t" } } };
    expect(unsupportedEvent(payload)).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "unknown-issue-action type",
    });
  });

  it("rejects a resource it does not know, naming its keys as Zulip does", () => {
    expect(unsupportedEvent({ action: "created", data: { error: {} } })).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "['error']",
      webhook_name: "Sentry",
    });
  });

  it("is never dropped by event filters (Zulip declares no event types)", () => {
    const payload = {
      action: "resolved",
      actor: { name: "Ann" },
      data: { issue: { title: "Boom", lastSeen: "2024-01-01T00:00:00Z", assignedTo: null } },
    };
    expect(post(payload, { only_events: '["nothing"]' })).toEqual({
      kind: "messages",
      event: "issue",
      messages: [
        {
          topic: "Boom",
          body: "Issue **Boom** was marked as resolved by **Ann**.",
          resolves: true,
          statusOnly: true,
        },
      ],
    });
  });
});

// Sentry: the hex HMAC-SHA256 of the body with the client secret; the expected value was computed with Python's hmac module.
describeSignature(sentry, {
  header: "sentry-hook-signature",
  secret: "sentry-client-secret",
  body: '{"action":"triggered","data":{"event":{"title":"Boom"}}}',
  signature: "3b6e8761fc14e14ec0f87bb9ec18cca6e34fdca76574ba5b12571eeadeee2ca7",
});
