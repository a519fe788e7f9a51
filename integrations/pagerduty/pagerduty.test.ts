import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, describeSignature, expectFixture } from "../kit/testing.js";
import pagerduty from "./index.js";

describeCases(pagerduty, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(pagerduty, {
    headers: { "content-type": "application/json" },
    params: { stream: "pagerduty", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const v3 = (eventType: string, withAgent = true): unknown => ({
  event: {
    event_type: eventType,
    ...(withAgent
      ? { agent: { html_url: "https://acme.pagerduty.com/users/U1", summary: "Ann Agent" } }
      : { agent: null }),
    data: {
      id: "Q1",
      html_url: "https://acme.pagerduty.com/incidents/Q1",
      number: 7,
      title: "Disk full",
      service: { html_url: "https://acme.pagerduty.com/services/S1", summary: "Storage" },
      assignees: [{ html_url: "https://acme.pagerduty.com/users/U2", summary: "Bob Oncall" }],
    },
  },
});

const v1 = (type: string): unknown => ({
  messages: [
    {
      type,
      data: {
        incident: {
          incident_number: 3,
          html_url: "https://acme.pagerduty.com/incidents/P3",
          service: { name: "Web", html_url: "https://acme.pagerduty.com/services/PW" },
          assigned_to_user: { email: "bob@acme.com", html_url: "https://acme.pagerduty.com/users/PB" },
          trigger_summary_data: { subject: "Site down", description: "500s everywhere" },
        },
      },
    },
  ],
});

const bodyOf = (o: DispatchOutcome): string | undefined =>
  o.kind === "messages" ? o.messages.map((m) => m.body).join("\n---\n") : o.kind;

describe("pagerduty: events the recorded cases lack", () => {
  it("v3: resolved by the agent", () => {
    expect(post(v3("incident.resolved"))).toEqual({
      kind: "messages",
      event: "resolved",
      messages: [
        {
          topic: "Incident Disk full (#7)",
          body: "Incident [Disk full (#7)](https://acme.pagerduty.com/incidents/Q1) resolved by [Ann Agent](https://acme.pagerduty.com/users/U1).",
          // With resolve_topics=true, the incident's topic is resolved.
          resolves: true,
          statusOnly: true,
        },
      ],
    });
  });

  it("v3: resolved without an agent", () => {
    expect(bodyOf(post(v3("incident.resolved", false)))).toBe(
      "Incident [Disk full (#7)](https://acme.pagerduty.com/incidents/Q1) resolved.",
    );
  });

  it("v3: reassigned to the first assignee", () => {
    expect(bodyOf(post(v3("incident.reassigned")))).toBe(
      "Incident [Disk full (#7)](https://acme.pagerduty.com/incidents/Q1) reassigned to [Bob Oncall](https://acme.pagerduty.com/users/U2).",
    );
  });

  it("v3: triggered by the service", () => {
    expect(bodyOf(post(v3("incident.triggered")))).toBe(
      "Incident [Disk full (#7)](https://acme.pagerduty.com/incidents/Q1) triggered by [Storage](https://acme.pagerduty.com/services/S1) (assigned to [Bob Oncall](https://acme.pagerduty.com/users/U2)).",
    );
  });

  it("v1: assigned, with subject and description quoted", () => {
    expect(bodyOf(post(v1("incident.assign")))).toBe(
      "Incident [3](https://acme.pagerduty.com/incidents/P3) assigned to [bob](https://acme.pagerduty.com/users/PB).\n\n``` quote\nSite down\n500s everywhere\n```",
    );
  });

  it("v1: escalated by the assignee", () => {
    expect(bodyOf(post(v1("incident.escalate")))).toBe(
      "Incident [3](https://acme.pagerduty.com/incidents/P3) escalated by [bob](https://acme.pagerduty.com/users/PB).\n\n``` quote\nSite down\n500s everywhere\n```",
    );
  });

  it("filters each incident on its action", () => {
    expect(post(v3("incident.resolved"), { only_events: '["triggered"]' }).kind).toBe("ignored");
    expect(post(v3("incident.resolved"), { exclude_events: '["ack*"]' }).kind).toBe("messages");
  });

  it("rejects an unknown v3 event type", () => {
    expect(() => post(v3("incident.priority_updated"))).toThrow(
      "The 'incident.priority_updated' event isn't currently supported by the PagerDuty webhook",
    );
  });
});

// PagerDuty v3: "v1=" and the hex HMAC-SHA256 of the body; the expected value was computed with Python's hmac module.
describeSignature(pagerduty, {
  header: "x-pagerduty-signature",
  secret: "pd-secret",
  body: '{"event":{"id":"01DEN4HPBQAOY0LPKX4YZ3D6QR","event_type":"incident.triggered"}}',
  signature: "v1=960597e597ac8045496daaef7c1e058aad44c8aa1face16b59dad4286aa8fb99",
});

describe("pagerduty: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  it("v1 trigger", () => {
    expectFixture(pagerduty, dir, "incident.trigger__v1", {
      topic: "Incident 3",
      body: "Incident [3](https://zulip-test.pagerduty.com/incidents/P140S4Y) triggered by [Test service](https://zulip-test.pagerduty.com/services/PIL5CUQ) (assigned to [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ)).\n\n``` quote\nfoo\n```",
    });
  });
  it("v1 unacknowledge", () => {
    expectFixture(pagerduty, dir, "incident.unacknowledge__v1", {
      topic: "Incident 3",
      body: "Incident [3](https://zulip-test.pagerduty.com/incidents/P140S4Y) unacknowledged by [Test service](https://zulip-test.pagerduty.com/services/PIL5CUQ) (assigned to [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ)).\n\n``` quote\nfoo\n```",
    });
  });
  it("v1 acknowledge without trigger summary data", () => {
    expectFixture(pagerduty, dir, "incident.acknowledge__without_trigger_summary_data", {
      topic: "Incident 1",
      body: "Incident [1](https://zulip-test.pagerduty.com/incidents/PO1XIJ5) acknowledged by [armooo](https://zulip-test.pagerduty.com/users/POBCFRJ).\n\n``` quote\n\n```",
    });
  });
  it("v1 resolve without a subject or resolver", () => {
    expectFixture(pagerduty, dir, "incident.resolve__no_subject", {
      topic: "Incident 48219",
      body: "Incident [48219](https://dropbox.pagerduty.com/incidents/PJKGZF9) resolved.\n\n``` quote\nmp_error_block_down_critical\u2119\u01b4\n```",
    });
  });
  it("v2 trigger", () => {
    expectFixture(pagerduty, dir, "incident.trigger__v2", {
      topic: "Incident 33",
      body: "Incident [33](https://webdemo.pagerduty.com/incidents/PRORDTY) triggered by [Production XDB Cluster](https://webdemo.pagerduty.com/services/PN49J75) (assigned to [Laura Haley](https://webdemo.pagerduty.com/users/P553OPV)).\n\n``` quote\nMy new incident\n```",
    });
  });
  it("v2 assign", () => {
    expectFixture(pagerduty, dir, "incident.assign__v2", {
      topic: "Incident 33",
      body: "Incident [33](https://webdemo.pagerduty.com/incidents/PRORDTY) assigned to [Wiley Jacobson](https://webdemo.pagerduty.com/users/PFBSJ2Z).\n\n``` quote\nMy new incident\n```",
    });
  });
  it("v2 resolve", () => {
    expectFixture(pagerduty, dir, "incident.resolve__v2", {
      topic: "Incident 33",
      body: "Incident [33](https://webdemo.pagerduty.com/incidents/PRORDTY) resolved by [Laura Haley](https://webdemo.pagerduty.com/users/P553OPV).\n\n``` quote\nMy new incident\n```",
    });
  });
  it("v3 triggered", () => {
    expectFixture(pagerduty, dir, "incident.triggered__v3", {
      topic: "Incident Test Incident 3 (#9)",
      body: "Incident [Test Incident 3 (#9)](https://pig208.pagerduty.com/incidents/PFQZPSY) triggered by [pig208](https://pig208.pagerduty.com/services/PA2P440) (assigned to [PIG 208](https://pig208.pagerduty.com/users/PJ0LVEB)).",
    });
  });
  it("v3 resolved", () => {
    expectFixture(pagerduty, dir, "incident.resolved__v3", {
      topic: "Incident Test Incident (#6)",
      body: "Incident [Test Incident (#6)](https://pig208.pagerduty.com/incidents/PCPZE64) resolved by [PIG 208](https://pig208.pagerduty.com/users/PJ0LVEB).",
    });
  });
  it("v3 reassigned", () => {
    expectFixture(pagerduty, dir, "incident.reassigned__v3", {
      topic: "Incident Test Incident (#3)",
      body: "Incident [Test Incident (#3)](https://pig208.pagerduty.com/incidents/PIQUG8X) reassigned to [Test User](https://pig208.pagerduty.com/users/PI9DT01).",
    });
  });
});
