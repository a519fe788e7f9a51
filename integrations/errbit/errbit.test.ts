import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import errbit from "./index.js";

describeCases(errbit, new URL("./fixtures/cases", import.meta.url));

describe("errbit: payloads the recorded cases lack", () => {
  it("needs only the problem's app, environment, class, URL and message", () => {
    expectFixture(errbit, new URL(".", import.meta.url), "problem__without_optional_fields", {
      topic: "Shop / production",
      body: '[NoMethodError](https://errbit.example.com/apps/1/problems/2): "undefined method `name\' for nil:NilClass" occurred.',
    });
  });

  it("names a missing field", () => {
    expect(() => dispatchPayload(errbit, undefined, { problem: { app_name: "a" } })).toThrow(
      "Missing key 'problem.environment' in JSON payload",
    );
  });
});
