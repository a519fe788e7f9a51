import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import freshdesk from "./index.js";

const here = new URL(".", import.meta.url);

describe("freshdesk: Zulip's other fixtures", () => {
  it("posts a ticket created through the Dispatch'r", () => {
    expectFixture(freshdesk, here, "ticket__created", {
      topic: "#11: Test ticket subject ☃",
      body:
        "Requester ☃ Bob <requester-bob@example.com> created [ticket #11](http://test1234zzz.freshdesk.com/helpdesk/tickets/11):\n\n" +
        "``` quote\nTest ticket description ☃.\n```\n\n" +
        "* **Type**: Incident\n* **Priority**: High\n* **Status**: Pending",
    });
  });

  it("posts nothing for a trigger it does not know", () => {
    expectFixture(freshdesk, here, "ticket__unknown_payload", null);
  });
});
