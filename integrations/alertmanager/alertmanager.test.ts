import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import alertmanager from "./index.js";

describeCases(alertmanager, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(alertmanager, {
    headers: { "content-type": "application/json" },
    params: { stream: "alerts", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const alert = (status: string, instance: string, alertname: string): unknown => ({
  status,
  labels: { alertname, instance },
  annotations: {},
  generatorURL: "http://prom:9090/graph?g0.expr=up&g0.tab=1",
});

describe("alertmanager: default fields, statuses and grouping", () => {
  it("groups by instance and describes by alertname by default, one message per status", () => {
    expect(
      post({
        alerts: [
          alert("firing", "db1", "DiskFull"),
          alert("resolved", "db1", "HighLoad"),
          alert("firing", "web1", "Down"),
          alert("firing", "db1", "Slow"),
        ],
      }),
    ).toEqual({
      kind: "messages",
      event: "default",
      messages: [
        {
          topic: "db1",
          body:
            ":alert: **FIRING**\n" +
            "* DiskFull ([source](http://prom:9090/graph?g0.expr=up&g0.tab=0))\n" +
            "* Slow ([source](http://prom:9090/graph?g0.expr=up&g0.tab=0))",
          // resolve_topics: firing alerts open the topic; a resolved one does not resolve it while
          // others of the group fire.
          resolves: false,
        },
        {
          topic: "db1",
          body: ":squared_ok: **Resolved** HighLoad ([source](http://prom:9090/graph?g0.expr=up&g0.tab=0))",
        },
        {
          topic: "web1",
          body: ":alert: **FIRING** Down ([source](http://prom:9090/graph?g0.expr=up&g0.tab=0))",
          resolves: false,
        },
      ],
    });
  });

  it("says which fields are missing", () => {
    expect(post({ alerts: [alert("firing", "db1", "DiskFull")] }, { name: "host", desc: "summary" })).toEqual(
      {
        kind: "messages",
        event: "default",
        messages: [
          {
            topic: "(unknown)",
            body: ":alert: **FIRING** <missing field: summary> ([source](http://prom:9090/graph?g0.expr=up&g0.tab=0))",
            resolves: false,
          },
        ],
      },
    );
  });

  it("is never dropped by event filters (Zulip declares no event types)", () => {
    expect(post({ alerts: [alert("firing", "db1", "DiskFull")] }, { only_events: '["nothing"]' }).kind).toBe(
      "messages",
    );
  });
});

describe("alertmanager: Zulip's other fixtures", () => {
  it("posts a single resolved alert on one line", () => {
    expectFixture(
      alertmanager,
      new URL(".", import.meta.url),
      "alert__single_alert",
      {
        topic: "andromeda",
        body: ":squared_ok: **Resolved** CPU core temperature is 34.75C ([source](http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0))",
      },
      { name: "topic", desc: "description" },
    );
  });
});
