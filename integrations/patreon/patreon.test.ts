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
import patreon from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(patreon, cases);

describe("patreon: events the recorded cases do not show", () => {
  it("posts a raised pledge", () => {
    expectFixture(patreon, here, "members_pledge_update__raised", {
      topic: "membership notifications",
      body: "Kopi has updated their pledge to $10.00 per month. :gear:",
    });
  });

  it("posts a cancelled pledge with the number of patrons left", () => {
    expectFixture(patreon, here, "members_pledge_delete__cancelled", {
      topic: "membership notifications",
      body: "Kopi's pledge has been cancelled. :cross_mark:\nTotal number of patrons: 4",
    });
  });

  it("posts a member who became a former patron", () => {
    expectFixture(patreon, here, "members_update__former", {
      topic: "membership notifications",
      body: "Kopi's membership has been updated to former patron.",
    });
  });

  it("posts a pledge without included campaign details", () => {
    const p = casePayload(cases, "test_patreon_members_pledge_create");
    delete p["included"];
    expect(onlyMessage(dispatchPayload(patreon, "members:pledge:create", p))).toEqual({
      topic: "membership notifications",
      body: "Kopi has pledged $5.00 per month. :tada:",
    });
  });

  it("stays silent on a declined pledge update", () => {
    expect(dispatchPayload(patreon, "members:update", casePayload(cases, "test_ignored_payloads")).kind).toBe(
      "ignored",
    );
  });

  it("rejects an unknown event and a request without X-Patreon-Event", () => {
    const codeOf = (run: () => unknown): unknown => {
      try {
        run();
      } catch (err) {
        return err instanceof JsonableError ? err.toJSON() : err;
      }
      return "ok";
    };
    expect(codeOf(() => dispatchPayload(patreon, "posts:publish", {}))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "posts:publish",
    });
    expect(codeOf(() => dispatchPayload(patreon, undefined, {}))).toMatchObject({
      code: "MISSING_HTTP_EVENT_HEADER",
    });
  });

  it("filters with Patreon's event names", () => {
    const p = casePayload(cases, "test_patreon_members_create");
    expect(dispatchPayload(patreon, "members:create", p, { exclude_events: '["members:create"]' }).kind).toBe(
      "filtered",
    );
  });
});

// HMAC-MD5 with the secret "patreon-webhook-secret", from `openssl dgst -md5 -hmac`.
describeSignature(patreon, {
  title: "X-Patreon-Signature",
  header: "x-patreon-signature",
  secret: "patreon-webhook-secret",
  body: '{"data":{"attributes":{"full_name":"Kopi"}}}',
  signature: "45ca6b8c7fc843b45d16af1c737929da",
  rejects: [undefined],
});
