import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import freshdesk, { parseTriggeredEvent } from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(freshdesk, cases);

describe("freshdesk: beyond the recorded cases", () => {
  it("posts a private note", () => {
    expectFixture(freshdesk, here, "note_added__private", {
      topic: "#11: Test ticket subject",
      body: "Requester Bob <requester-bob@example.com> added a private note to [ticket #11](http://test1234zzz.freshdesk.com/helpdesk/tickets/11).",
    });
  });

  it("stays silent on triggers it does not know", () => {
    expectFixture(freshdesk, here, "other__unknown_trigger", null);
  });

  it("turns a formatted description into Markdown", () => {
    expectFixture(freshdesk, here, "ticket_created__formatted_description", {
      topic: "#13: Printer on fire",
      body:
        "Requester Bob <requester-bob@example.com> created [ticket #13](http://test1234zzz.freshdesk.com/helpdesk/tickets/13):\n\n" +
        "``` quote\nThe printer on **floor 3** is _on fire_. See [the status\npage](https://status.example.com/printers).\n\n" +
        "  * Paper jam\n  * Smoke\n\nThanks & regards,  \nBob\n```\n\n" +
        "* **Type**: Incident\n* **Priority**: Urgent\n* **Status**: Open",
    });
  });

  it("rejects a payload without triggered_event", () => {
    const p = casePayload(cases, "test_status_change") as { freshdesk_webhook: Record<string, unknown> };
    delete p.freshdesk_webhook["triggered_event"];
    const caught = expectError(() => dispatchPayload(freshdesk, undefined, p));
    expect(caught.httpStatus).toBe(400);
  });

  it("parses Freshdesk's trigger notation", () => {
    expect(parseTriggeredEvent("{ticket_action:created}")).toEqual(["ticket_action", "created"]);
    expect(parseTriggeredEvent("{status:{from:2,to:5}}")).toEqual(["status", "Open", "Closed"]);
    expect(parseTriggeredEvent("{priority:{from:4,to:9}}")).toEqual(["priority", "Urgent", "9"]);
  });

  it("is never dropped by only_events (Zulip names no Freshdesk events)", () => {
    const p = casePayload(cases, "test_status_change");
    expect(dispatchPayload(freshdesk, undefined, p, { only_events: '["nothing"]' }).kind).toBe("messages");
  });
});

describe("freshdesk: htmlToMarkdown", () => {
  it("wraps long paragraphs at 78 columns and escapes Markdown", () => {
    expect(
      htmlToMarkdown(
        "<div>1. one two three four five six seven eight nine ten eleven twelve thirteen fourteen</div>",
      ),
    ).toBe("1\\. one two three four five six seven eight nine ten eleven twelve thirteen\nfourteen");
  });

  it("quotes blockquotes and keeps preformatted text", () => {
    expect(htmlToMarkdown("<blockquote>quoted</blockquote><pre>a  b</pre>")).toBe("> quoted\n\n    a  b");
  });
});
