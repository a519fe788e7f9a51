import { describe, expect, it } from "@jest/globals";
import { fixtureRequest } from "../kit/index.js";
import { dispatchWebhook } from "../kit/stages.js";
import { describeCases, expectFixture } from "../kit/testing.js";
import librato from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(librato, new URL("./fixtures/cases", import.meta.url));

function post(body: string, contentType: string): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(librato, {
    headers: { "content-type": contentType },
    params: { stream: "librato" },
    rawBody: Buffer.from(body, "utf8"),
  });
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return (err as { toJSON(): unknown }).toJSON();
  }
  return undefined;
}

describe("librato: alerts the recorded cases lack", () => {
  it("posts a cleared alert", () => {
    expectFixture(librato, here, "clear__alert_cleared", {
      topic: "Alert Alert_name",
      body: "Alert [alert_name](https://metrics.librato.com/alerts#/6309313) has cleared at <time:2016-04-12T13:11:44+00:00>!",
    });
  });

  it("reads violations of a real source, keeps 44.0 as Python prints it, and leaves out a zero duration", () => {
    expectFixture(librato, here, "violations__real_source_no_runbook", {
      topic: "Alert alert.name",
      body:
        "Alert [alert_name](https://metrics.librato.com/alerts#/6294535) has triggered! \n" +
        " * Metric `librato.cpu.percent.idle`, sum was below 44.0 by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.\n" +
        " * Metric `librato.swap.swap.cached`, average was absent , recorded at <time:2016-03-31T09:11:42+00:00>.",
    });
  });

  it("answers a request with neither an alert nor attachments as Zulip does", () => {
    expect(errorOf(() => post("", "application/x-www-form-urlencoded"))).toEqual({
      result: "error",
      msg: "Malformed JSON input",
      code: "BAD_REQUEST",
    });
  });

  it("answers an alert that is neither cleared nor violated as Zulip does", () => {
    const form = new URLSearchParams({
      payload: JSON.stringify({ alert: { id: 1, name: "a" }, violations2: {} }),
    });
    expect(errorOf(() => post(form.toString(), "application/x-www-form-urlencoded"))).toEqual({
      result: "error",
      msg: "Unexpected message type",
      code: "BAD_REQUEST",
    });
  });

  it("answers a payload field that is not JSON", () => {
    expect(errorOf(() => post("payload=%7B", "application/x-www-form-urlencoded"))).toEqual({
      result: "error",
      msg: 'Argument "payload" is not valid JSON.',
      code: "BAD_REQUEST",
    });
  });
});

describe("librato: Zulip's other tests", () => {
  it("posts a triggered alert to the URL's topic (test_alert_message_with_custom_topic)", () => {
    expectFixture(
      librato,
      here,
      "violations__custom_topic",
      {
        topic: "custom_name",
        body:
          "Alert [alert_name](https://metrics.librato.com/alerts#/6294535) has triggered! [Reaction steps](http://www.google.pl):\n" +
          " * Metric `librato.cpu.percent.idle`, sum was below 44 by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.\n" +
          " * Metric `librato.swap.swap.cached`, average was absent  by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.\n" +
          " * Metric `librato.swap.swap.cached`, derivative was above 9 by 300s, recorded at <time:2016-03-31T09:11:42+00:00>.",
      },
      { topic: "custom_name" },
    );
  });

  it("answers a form body sent as application/json with Malformed JSON input (test_bad_request)", () => {
    expect(
      errorOf(() => dispatchWebhook(librato, fixtureRequest(librato, here, "bad__malformed_json"))),
    ).toEqual({
      result: "error",
      msg: "Malformed JSON input",
      code: "BAD_REQUEST",
    });
  });

  it("answers an alert with violations2 instead of violations with Unexpected message type (test_bad_msg_type)", () => {
    expect(
      errorOf(() => dispatchWebhook(librato, fixtureRequest(librato, here, "violations2__bad_msg_type"))),
    ).toEqual({
      result: "error",
      msg: "Unexpected message type",
      code: "BAD_REQUEST",
    });
  });
});
