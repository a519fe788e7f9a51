import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import opencollective from "./index.js";

describeCases(opencollective, new URL("./fixtures/cases", import.meta.url));

describe("opencollective: beyond the recorded cases", () => {
  it("uses the amount with its interval when the plain amount is missing", () => {
    expectFixture(
      opencollective,
      new URL(".", import.meta.url),
      "collective.member.created__organization_monthly",
      {
        topic: "New Member",
        body: "@_**Kandra Labs** donated **€25.00 / month**! :tada:",
      },
    );
  });

  it("rejects other activity types, named by their type", () => {
    const caught = expectError(() =>
      dispatchPayload(opencollective, undefined, {
        type: "collective.expense.created",
        data: { expense: {} },
      }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "collective.expense.created",
    });
  });
});
