import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { JsonableError } from "../../src/errors.js";
import { caseRequest, loadCases } from "./cases.js";
import type { WebhookCase } from "./cases.js";
import { verifySignature } from "./signatures.js";
import type { AnyIntegration } from "./define-integration.js";
import { dispatchWebhook, dispatchWebhookAsync, type DispatchOutcome } from "./stages.js";
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
      it(c.case_id, async () => {
        const want = expectedOutcome(c);
        const run = (): Promise<DispatchOutcome> =>
          dispatchWebhookAsync(integration, { ...caseRequest(c), userFullName });
        if (want.kind === "error") {
          // The error's status and body: the case's fields (Zulip checks the message; this
          // server's bodies also carry a code).
          let caught: unknown;
          try {
            await run();
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
            await run();
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
        const outcome = await run();
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
 * Every message a Zulip-style fixture posts, topic and body, in order (none when it posts nothing):
 * for payloads that post several (batches, several pull requests).
 */
export function fixtureMessages(
  integration: AnyIntegration,
  dir: URL | string,
  name: string,
  params: Record<string, string> = {},
): { topic: string; body: string }[] {
  const outcome = dispatchWebhook(integration, fixtureRequest(integration, dir, name, params));
  return outcome.kind === "messages" ? outcome.messages.map(({ topic, body }) => ({ topic, body })) : [];
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
  // What is posted; its topic lifecycle is asserted on its own (`resolves`, `statusOnly`, `statusOf`).
  const last = { ...outcome.messages[outcome.messages.length - 1] };
  delete last.resolves;
  delete last.statusOnly;
  delete last.statusOf;
  expect(last).toEqual(expected);
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

/**
 * The error `run` throws, which must be one the server writes to the wire (a JsonableError: its
 * `httpStatus` and `toJSON()` are what the sender gets); fails the test when nothing or something
 * else is thrown.
 */
export function expectError(run: () => unknown): JsonableError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return err as JsonableError;
  }
  throw new Error("expected an error, but nothing was thrown");
}

/** The one message an outcome holds (fails the test otherwise). */
export function onlyMessage(outcome: DispatchOutcome): {
  topic: string;
  body: string;
  resolves?: boolean;
  statusOnly?: boolean;
} {
  if (outcome.kind !== "messages") throw new Error(`expected a message, got ${outcome.kind}`);
  expect(outcome.messages).toHaveLength(1);
  const [m] = outcome.messages;
  if (m === undefined) throw new Error("no message");
  return m;
}

/** A signature a service sent (or would send), with its expected value written out by the test. */
export interface SignatureExample {
  /** The header that carries the signature, e.g. `"x-hub-signature"`. */
  header: string;
  /** The secret the signature was computed with. */
  secret: string;
  /** The exact body that was signed. */
  body: string;
  /** The expected signature header value, computed outside this code (openssl, Python's hmac…). */
  signature: string;
  /** Other headers the request carries (Transifex's `X-TX-Url` and `Date`). */
  headers?: Readonly<Record<string, string>>;
  /** Other values of the signature header that must be refused (`undefined`: the header is missing). */
  rejects?: readonly (string | undefined)[];
  /** The describe block's title after `<integration>: `; "signature" unless given. */
  title?: string;
}

/**
 * Declares the tests of a body signature: the pipeline's verifier accepts `signature` over `body`
 * with `secret`, and refuses it (401 INVALID_WEBHOOK_SIGNATURE) over another body, with another
 * secret, and for each of `rejects`.
 */
export function describeSignature(integration: AnyIntegration, example: SignatureExample): void {
  const { header, secret, body, signature } = example;
  const verify = (value: string | undefined, key = secret, raw = body): void => {
    const scheme = integration.signature;
    if (scheme === undefined) throw new Error(`${integration.name} declares no signature scheme`);
    const headers: Record<string, string | undefined> = { ...example.headers, [header.toLowerCase()]: value };
    verifySignature(
      scheme,
      key,
      {
        rawBody: Buffer.from(raw, "utf8"),
        header: (name) => headers[name.toLowerCase()],
        url: `https://chat.example.com/api/v1/external/${integration.name}`,
      },
      0,
    );
  };
  const refused = expect.objectContaining({ code: "INVALID_WEBHOOK_SIGNATURE" });
  const rejected = expect.objectContaining({
    code: "INVALID_WEBHOOK_SIGNATURE",
    message: "Webhook signature verification failed.",
  });
  describe(`${integration.name}: ${example.title ?? "signature"}`, () => {
    it("accepts the service's signature of the body", () => {
      expect(() => verify(signature)).not.toThrow();
    });

    it("rejects another body or another secret", () => {
      expect(() => verify(signature, secret, `${body} `)).toThrow(rejected);
      expect(() => verify(signature, "another secret")).toThrow(rejected);
    });

    const rejects = example.rejects ?? [];
    if (rejects.length > 0) {
      it("rejects a missing or malformed signature header", () => {
        for (const value of rejects) expect(() => verify(value)).toThrow(refused);
      });
    }
  });
}
