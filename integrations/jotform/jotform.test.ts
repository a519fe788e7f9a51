import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import jotform, { prettyFields } from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(jotform, cases);

describe("jotform: beyond the recorded cases", () => {
  it("lists names, skips empty dates and tables, and links files of several questions", () => {
    expectFixture(jotform, new URL(".", import.meta.url), "submission__appointment_with_files", {
      topic: "Tutor Appointment Form",
      body:
        "* **Student's Name**: Niloth P\n* **Type of Tutoring**: Online Tutoring\n* **Subject for Tutoring**: Math\n" +
        "* **Grade**: 12\n* **Prior Tutoring?** No\n\n" +
        "* **Identity Proof**: [Student_ID_!_$&'()_,-.;=@[]^_`{}~ .png](https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227683/Student_ID_%21_%24%26%27%28%29_%2C-.%3B%3D%40%5B%5D%5E_%60%7B%7D~%20.png), " +
        "[Driving.license.png](https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227684/Driving.license.png)\n\n" +
        "* **Reports**: [Report Card.pdf](https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227685/Report%20Card.pdf)",
    });
  });

  it("reads a urlencoded submission", () => {
    const body = new URLSearchParams({
      formTitle: "Contact",
      rawRequest: '{"q1_name":"Ann","q2_email":"ann@example.com"}',
      pretty: "Name:Ann, E-mail:ann@example.com",
    }).toString();
    const outcome = dispatchWebhook(jotform, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      params: {},
      rawBody: Buffer.from(body),
    });
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [{ topic: "Contact", body: "* **Name**: Ann\n* **E-mail**: ann@example.com" }],
    });
  });

  it("answers a submission it cannot read with Zulip's error", () => {
    const caught = expectError(() =>
      dispatchPayload(jotform, undefined, { formTitle: "Empty", rawRequest: "{}", pretty: "" }),
    );
    expect(caught.toJSON()).toMatchObject({
      result: "error",
      msg: "Unable to handle Jotform payload",
    });
  });

  it("splits pretty text whose keys equal their values", () => {
    expect(prettyFields("Same:Same, Other:Value", ["Same", "Value"])).toEqual([
      ["Same", "Same"],
      ["Other", "Value"],
    ]);
  });
});
