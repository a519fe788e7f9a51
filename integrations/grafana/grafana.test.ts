import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import grafana from "./index.js";

describeCases(grafana, new URL("./fixtures/cases", import.meta.url));

function post(body: string, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(grafana, {
    headers: { "content-type": "application/json" },
    params: { stream: "grafana", ...params },
    rawBody: Buffer.from(body, "utf8"),
  });
}

const bodies = (o: DispatchOutcome): (string | undefined)[] =>
  o.kind === "messages" ? o.messages.map((m) => m.body) : [o.kind];

describe("grafana: states and values the recorded cases lack", () => {
  it("shows a paused legacy alert with the info icon and a float as Python prints it", () => {
    const legacy =
      '{"title": "[Paused] Disk", "ruleName": "Disk", "ruleUrl": "http://g/d/1", "state": "paused",' +
      ' "evalMatches": [{"metric": "sda", "value": 1.0}, {"metric": "sdb", "value": null}]}';
    expect(post(legacy)).toEqual({
      kind: "messages",
      event: "paused",
      messages: [
        {
          topic: "[Paused] Disk",
          body: ":info: **PAUSED**\n\n[Disk](http://g/d/1)\n\n**sda:** 1.0\n**sdb:** None",
        },
      ],
    });
  });

  it("filters legacy alerts on their state", () => {
    const legacy = '{"title": "t", "ruleName": "r", "ruleUrl": "u", "state": "ok"}';
    expect(post(legacy, { only_events: '["alerting"]' }).kind).toBe("filtered");
  });

  it("posts one message per unified alert and filters each on its status", () => {
    const alert = (status: string, name: string): string =>
      `{"status": "${status}", "labels": {"alertname": "${name}"}, "annotations": {},` +
      ` "startsAt": "2024-01-02T03:04:05.123Z", "endsAt": "2024-01-02T04:00:00Z",` +
      ` "generatorURL": "", "silenceURL": "", "values": {"B": 0.5, "C": 1e-05}}`;
    const payload = `{"status": "firing", "alerts": [${alert("firing", "CPU")}, ${alert("resolved", "RAM")}]}`;
    expect(bodies(post(payload))).toEqual([
      ":alert: **FIRING**\n\n**CPU**\n\nThis alert was fired at <time:2024-01-02T03:04:05+00:00>.\n\n" +
        "Labels:\n- alertname: CPU\n\nValues:\n- B: 0.5\n- C: 1e-05",
      ":checkbox: **RESOLVED**\n\n**RAM**\n\nThis alert was fired at <time:2024-01-02T03:04:05+00:00>.\n\n" +
        "This alert was resolved at <time:2024-01-02T04:00:00+00:00>.\n\n" +
        "Labels:\n- alertname: RAM\n\nValues:\n- B: 0.5\n- C: 1e-05",
    ]);
    expect(post(payload, { only_events: '["resolved"]' })).toMatchObject({
      kind: "messages",
      messages: [{ topic: "[RAM]" }],
    });
  });
});

describe("grafana: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  it("posts a paused legacy alert without values", () => {
    expectFixture(grafana, dir, "alerting__paused_v7", {
      topic: "[Paused] Test notification",
      body:
        ":info: **PAUSED**\n\n[Test rule](http://localhost:3000/)\n\n" +
        "Someone is testing the alert notification within grafana.\n\n\n" +
        "[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)",
    });
  });
  it("posts a pending legacy alert with its values", () => {
    expectFixture(grafana, dir, "alerting__pending_v7", {
      topic: "[Pending] Test notification",
      body:
        ":info: **PENDING**\n\n[Test rule](http://localhost:3000/)\n\n" +
        "Someone is testing the alert notification within grafana.\n\n" +
        "**High value:** 100\n**Higher Value:** 200\n\n" +
        "[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)",
    });
  });
  it("names an alert without an alertname after its fingerprint", () => {
    expectFixture(grafana, dir, "alerts__no_alertname_v11", {
      topic: "[e6349a25f5ef0e9e]",
      body:
        ":alert: **FIRING**\n\nThis alert was fired at <time:2024-03-01T02:09:00+00:00>.\n\n" +
        "Labels:\n- debug: true\n- grafana_folder: device\n\n" +
        "Values:\n- A: 2473545728\n- B: 0\n- C: 1\n- minute: 9\n\n" +
        "Annotations:\n- summary: High memory usage\n\n" +
        "[Generator](https://play.grafana.org/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1)\n" +
        "[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DMemory+%28copy%29&matcher=debug%3Dtrue&matcher=grafana_folder%3Ddevice&orgId=1)\n" +
        "[Image](https://grafana.com/assets/img/blog/mixed_styles.png)",
    });
  });
});
