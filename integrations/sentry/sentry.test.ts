import { describe, expect, it } from "@jest/globals";
import type { JsonableError } from "../../src/errors.js";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, describeSignature, expectFixture } from "../kit/testing.js";
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

describe("sentry: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  const issues = "https://sentry.io/organizations/hypro999-personal-organization/issues/";

  it("quotes the frame of a Go exception, from the last exception value with a stack trace", () => {
    expectFixture(sentry, dir, "event__exception_golang", {
      topic: '*url.Error: Get "bad_url": unsupported protocol scheme ""',
      body:
        `**New exception:** [*url.Error: Get "bad_url": unsupported protocol scheme ""](${issues}1637164584/events/80777a9cc30e4d0eb8904333d5c298b0/)\n` +
        "```quote\n**level:** error\n**timestamp:** <time:2020-04-29T11:23:45+00:00>\n**filename:** trigger-exception.go\n```\n\n" +
        "Traceback:\n```go\n" +
        "         // Set the timeout to the maximum duration the program can afford to wait.\n" +
        "         defer sentry.Flush(2 * time.Second)\n\n" +
        "         resp, err := http.Get(os.Args[1])\n" +
        "         if err != nil {\n" +
        "--->         sentry.CaptureException(err)\n" +
        '             log.Printf("reported to Sentry: %s", err)\n' +
        "             return\n" +
        "         }\n" +
        "         defer resp.Body.Close()\n\n```",
    });
  });

  it("quotes the last frame in the reported file of a Node exception", () => {
    expectFixture(sentry, dir, "event__exception_node", {
      topic: "Error: Sample error from node.",
      body:
        `**New exception:** [Error: Sample error from node.](${issues}1638852747/events/f9cb0f2afff74a5aa92e766fb7ac3fe3/)\n` +
        "```quote\n**level:** error\n**timestamp:** <time:2020-04-30T06:19:33+00:00>\n" +
        "**filename:** /home/hemanth/Desktop/sentry/trigger-exception.js\n```\n\n" +
        "Traceback:\n```javascript\n" +
        "       dsn: 'https://redacted.ingest.sentry.io/5216640',\n" +
        "     });\n\n" +
        "     Sentry.withScope(function(scope) {\n" +
        "       scope.addEventProcessor(function(event, hint) {\n" +
        "         return event;\n" +
        "       });\n" +
        "--->   Sentry.captureException(new Error('Sample error from node.'));\n" +
        "     });\n\n\n```",
    });
  });

  it("leaves out the traceback of a frame without source lines", () => {
    expectFixture(sentry, dir, "event__exception_js", {
      topic: "Error: Something external broke.",
      body:
        `**New exception:** [Error: Something external broke.](${issues}1731239773/events/355c3b2a142046629dd410db2fdda003/)\n` +
        "```quote\n**level:** error\n**timestamp:** <time:2020-06-17T14:42:54+00:00>\n" +
        "**filename:** /mnt/data/Documents/Stuff%20for%20Zulip/Repos/sentry/js/external.js\n```",
    });
  });

  it("says None for the file of a plugin event whose metadata names none, timed when received", () => {
    expectFixture(sentry, dir, "plugin__exception_javascript", {
      topic: 'TypeError: can\'t access property "bar", x.foo is undefined',
      body:
        '**New exception:** [TypeError: can\'t access property "bar", x.foo is undefined](https://sentry.io/organizations/foo-bar-org/issues/1982047746/events/f3bf5fc4e354451db9e885a69b2a2b51/)\n' +
        "```quote\n**level:** error\n**timestamp:** <time:2020-10-26T16:39:54+00:00>\n**filename:** None\n```",
    });
  });

  it("posts message events from Go and Node", () => {
    expectFixture(sentry, dir, "event__message_golang", {
      topic: "A test message event from golang.",
      body:
        `**New message event:** [A test message event from golang.](${issues}1638844654/events/01ecb45633bc4f5ca940ada671124c8f/)\n` +
        "```quote\n**level:** info\n**timestamp:** <time:2020-04-30T06:14:13+00:00>\n```",
    });
    expectFixture(sentry, dir, "event__message_node", {
      topic: "Test event from node.",
      body:
        `**New message event:** [Test event from node.](${issues}1638840427/events/6886bb1fe7ce4497b7836f6083d5fd34/)\n` +
        "```quote\n**level:** info\n**timestamp:** <time:2020-04-30T06:09:56+00:00>\n```",
    });
  });

  it("posts an issue created for an exception, assigned to no one", () => {
    expectFixture(sentry, dir, "issue__created_for_exception", {
      topic: "Exception: Custom exception!",
      body:
        "**New issue created:** Exception: Custom exception!\n```quote\n**level:** error\n" +
        "**timestamp:** <time:2020-04-28T13:56:05+00:00>\n**assignee:** No one\n```",
    });
  });
});
