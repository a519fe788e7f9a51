import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { JsonableError } from "../../src/errors.js";
import {
  casePayload,
  describeCases,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import wekan from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(wekan, cases);

describe("wekan: beyond the recorded cases", () => {
  it("posts an archived card", () => {
    expectFixture(wekan, new URL(".", import.meta.url), "notification__archived_card", {
      topic: "Wekan Notification",
      body:
        'JohnFish Card "Markdown and emoji\'s" at list "Design" at swimlane "Default" at board "Bucket List" moved to Archive.\n\n' +
        "[See in Wekan](http://127.0.0.1/b/Jinj4Xj7qnHLRmrTY/bucket-list/pMtu7kPZvMuhhC4hL)",
    });
  });

  it("posts a text without a link as it is", () => {
    expect(onlyMessage(dispatchPayload(wekan, undefined, { text: "JohnFish act-joinMember" }))).toEqual({
      topic: "Wekan Notification",
      body: "JohnFish act-joinMember.",
    });
  });

  it("is never dropped by only_events (Zulip names no Wekan events)", () => {
    const p = casePayload(cases, "test_create_card_message");
    expect(dispatchPayload(wekan, undefined, p, { only_events: '["nothing"]' }).kind).toBe("messages");
  });

  it("rejects a payload without text", () => {
    const caught = expectError(() => dispatchPayload(wekan, undefined, { user: "JohnFish" }));
    expect(caught.httpStatus).toBe(400);
  });

  it("checks the board webhook's token", () => {
    const scheme = wekan.signature;
    if (scheme === undefined) throw new Error("no scheme");
    const run = (token: string | undefined): string => {
      try {
        verifySignature(
          scheme,
          "s3cr3t-token",
          {
            rawBody: Buffer.from("{}"),
            header: (n) => (n.toLowerCase() === "x-wekan-token" ? token : undefined),
            url: "https://chat.example.com/api/v1/external/wekan",
          },
          0,
        );
        return "ok";
      } catch (err) {
        return err instanceof JsonableError ? err.code : String(err);
      }
    };
    expect(run("s3cr3t-token")).toBe("ok");
    expect(run("other")).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(run(undefined)).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});
