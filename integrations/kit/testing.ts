import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { JsonableError } from "../../src/errors.js";
import { caseRequest, loadCases } from "./cases.js";
import type { WebhookCase } from "./cases.js";
import type { DispatchOutcome } from "../../src/domain/webhooks/stages.js";
import type { AnyIntegration } from "./define-integration.js";
import { dispatchWebhook } from "./dispatch.js";
import { fixtureRequest } from "./fixtures.js";

/** What a case must produce, read from the case file (never computed by production code). */
function expectedOutcome(c: WebhookCase): {
  kind: string;
  topic?: string;
  body?: string;
  eventType?: string;
  status?: number;
  response?: unknown;
} {
  switch (c.expect) {
    case "channel_message":
    case "message":
      return { kind: "message", topic: c.expected_topic ?? "", body: c.expected_message ?? "" };
    case "direct_message":
      return { kind: "message", body: c.expected_message ?? "" };
    case "no_message":
      return { kind: "none" };
    case "success_response": {
      // Cases where Zulip answers 200 "...; ignoring": this project rejects the event instead (spec).
      const contains =
        (c as unknown as { expected_response_contains?: string[] }).expected_response_contains ?? [];
      const m = /^The '(.*)' event isn't currently supported/.exec(contains[0] ?? "");
      return m ? { kind: "unsupported", eventType: m[1] ?? "" } : { kind: "none" };
    }
    case "error_response":
      return { kind: "error", status: c.expected_status ?? 400, response: c.expected_response ?? {} };
  }
}

/** Extra context for `describeCases`. */
export interface CaseOptions {
  /**
   * Users of the realm the cases were recorded against, email → full name (Zulip's test realm,
   * e.g. `othello@zulip.com` → "Othello, the Moor of Venice"), for integrations that name users.
   */
  realmUsers?: Readonly<Record<string, string>>;
}

/**
 * Runs every recorded case in `casesDir` through the integration (pure dispatch: no server), one
 * `it` per case, asserting topic and body byte for byte, and for error cases the HTTP status and
 * the fields of the error body the case gives.
 */
export function describeCases(
  integration: AnyIntegration,
  casesDir: URL | string,
  only?: (c: WebhookCase) => boolean,
  options: CaseOptions = {},
): void {
  const users = options.realmUsers;
  const userFullName =
    users === undefined
      ? undefined
      : (email: string): string | undefined => {
          const wanted = email.toLowerCase();
          const hit = Object.entries(users).find(([e]) => e.toLowerCase() === wanted);
          return hit?.[1];
        };
  const dir = typeof casesDir === "string" ? casesDir : fileURLToPath(casesDir);
  // Owner notifications from the Notification Bot are the pipeline's, not the integration's.
  const cases = loadCases(dir).filter((c) => c.dm_sender !== "notification_bot" && (only ? only(c) : true));
  describe(`${integration.name}: recorded cases`, () => {
    it("has cases", () => {
      expect(cases.length).toBeGreaterThan(0);
    });
    for (const c of cases) {
      it(c.case_id, () => {
        const want = expectedOutcome(c);
        const run = (): ReturnType<typeof dispatchWebhook> =>
          dispatchWebhook(integration, { ...caseRequest(c), userFullName });
        if (want.kind === "error") {
          // The error's status and body: the case's fields (Zulip checks the message; this
          // server's bodies also carry a code).
          let caught: unknown;
          try {
            run();
          } catch (err) {
            caught = err;
          }
          expect(caught).toBeInstanceOf(JsonableError);
          const err = caught as JsonableError;
          expect({ status: err.httpStatus, body: err.toJSON() }).toMatchObject({
            status: want.status,
            body: want.response as Record<string, unknown>,
          });
          return;
        }
        if (want.kind === "unsupported") {
          let caught: unknown;
          try {
            run();
          } catch (err) {
            caught = err;
          }
          expect(caught).toBeInstanceOf(JsonableError);
          expect((caught as JsonableError).toJSON()).toMatchObject({
            code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
            event_type: want.eventType,
          });
          return;
        }
        const outcome = run();
        if (want.kind === "none") {
          expect(outcome.kind).not.toBe("messages");
          return;
        }
        expect(outcome.kind).toBe("messages");
        if (outcome.kind !== "messages") return;
        const last = outcome.messages[outcome.messages.length - 1];
        if (want.topic !== undefined) expect(last?.topic).toBe(want.topic);
        expect(last?.body).toBe(want.body);
      });
    }
  });
}

/**
 * Asserts the one message a Zulip-style fixture (fixtures/<header>__<variant>.json) produces:
 * `expectFixture(github, new URL(".", import.meta.url), "push__1_commit", { topic: "…", body: "…" })`.
 * Pass `null` to assert that the event is deliberately silent.
 */
export function expectFixture(
  integration: AnyIntegration,
  dir: URL | string,
  name: string,
  expected: { topic: string; body: string; directTo?: readonly string[]; stream?: string } | null,
  params: Record<string, string> = {},
): void {
  const outcome = dispatchWebhook(integration, fixtureRequest(integration, dir, name, params));
  if (expected === null) {
    expect(outcome.kind).not.toBe("messages");
    return;
  }
  expect(outcome.kind).toBe("messages");
  if (outcome.kind !== "messages") return;
  expect(outcome.messages[outcome.messages.length - 1]).toEqual(expected);
}

/** A recorded case's payload, deep-copied so a test may edit it: `casePayload(casesDir, "test_push")`. */
export function casePayload(casesDir: URL, caseId: string): Record<string, unknown> {
  const file = new URL(`${casesDir.href.replace(/\/?$/, "/")}${caseId}.json`);
  const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as { fixture: Record<string, unknown> };
  return structuredClone(recorded.fixture);
}

/**
 * Dispatches `payload` as a JSON body, with the integration's event header set to `event` when
 * given: the pure pipeline, for unit tests of events the recorded cases do not show.
 */
export function dispatchPayload(
  integration: AnyIntegration,
  event: string | undefined,
  payload: unknown,
  params: Record<string, string> = {},
): DispatchOutcome {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const header = integration.eventHeader?.name;
  if (event !== undefined && header !== undefined) headers[header.toLowerCase()] = event;
  return dispatchWebhook(integration, {
    headers,
    params: { stream: integration.name, ...params },
    rawBody: Buffer.from(JSON.stringify(payload)),
  });
}

/** The one message an outcome holds (fails the test otherwise). */
export function onlyMessage(outcome: DispatchOutcome): {
  topic: string;
  body: string;
} {
  if (outcome.kind !== "messages") throw new Error(`expected a message, got ${outcome.kind}`);
  expect(outcome.messages).toHaveLength(1);
  const [m] = outcome.messages;
  if (m === undefined) throw new Error("no message");
  return m;
}
