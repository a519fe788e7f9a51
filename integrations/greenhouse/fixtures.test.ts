import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import greenhouse from "./index.js";

const here = new URL(".", import.meta.url);

describe("greenhouse: Zulip's other fixtures", () => {
  it("posts a hired candidate with every email address", () => {
    expectFixture(greenhouse, here, "hire_candidate__johnny_smith", {
      topic: "Hire Candidate - 19",
      body:
        "Hire Candidate Johnny Smith (ID: 19), applying for:\n* **Role**: Developer\n" +
        "* **Emails**: personal@example.com (Personal), work@example.com (Work)\n" +
        "* **Attachments**: [Resume](https://prod-heroku.s3.amazonaws.com/...)",
    });
  });

  it("posts a stage change with every attachment type title-cased", () => {
    expectFixture(greenhouse, here, "candidate_stage_change__giuseppe_hurley", {
      topic: "Candidate Stage Change - 265772",
      body:
        "Candidate Stage Change Giuseppe Hurley (ID: 265772), applying for:\n* **Role**: Designer\n" +
        "* **Emails**: giuseppe.hurley@example.com (Personal)\n" +
        "* **Attachments**: [Resume](https://prod-heroku.s3.amazonaws.com/...), " +
        "[Cover_Letter](https://prod-heroku.s3.amazonaws.com/...), [Attachment](https://prod-heroku.s3.amazonaws.com/...)",
    });
  });

  it("posts a new prospect application", () => {
    expectFixture(greenhouse, here, "new_prospect_application__trisha_troy", {
      topic: "New Prospect Application - 968190",
      body:
        "New Prospect Application Trisha Troy (ID: 968190), applying for:\n* **Role**: Designer\n" +
        "* **Emails**: t.troy@example.com (Personal)\n" +
        "* **Attachments**: [Resume](https://prod-heroku.s3.amazonaws.com/...)",
    });
  });

  it("posts nothing for Greenhouse's ping", () => {
    expectFixture(greenhouse, here, "ping__zulip", null);
  });
});
