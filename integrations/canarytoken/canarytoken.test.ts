import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import canarytoken from "./index.js";

describeCases(canarytoken, new URL("./fixtures/cases", import.meta.url));

describe("canarytoken: payloads the recorded cases lack", () => {
  it("posts a DNS token, its fractional timestamp shown to the second", () => {
    expectFixture(canarytoken, new URL(".", import.meta.url), "triggered__dns_token", {
      topic: "canarytoken alert",
      body:
        "**:alert: Canarytoken has been triggered on <time:2024-05-02T22:10:09+00:00>!**\n\n" +
        "DNS token on the build server \n\n" +
        "[Manage this canarytoken](https://canarytokens.org/manage?token=abc&auth=def)",
    });
  });

  it("shows a time it cannot read as sent", () => {
    const payload = { manage_url: "https://m", memo: "m", time: "now" };
    expect(onlyMessage(dispatchPayload(canarytoken, undefined, payload)).body).toBe(
      "**:alert: Canarytoken has been triggered on now!**\n\nm \n\n[Manage this canarytoken](https://m)",
    );
  });

  it("rejects a payload without a memo, naming the field", () => {
    expect(() => dispatchPayload(canarytoken, undefined, { manage_url: "https://m", time: "now" })).toThrow(
      "Missing key 'memo' in JSON payload",
    );
  });
});
