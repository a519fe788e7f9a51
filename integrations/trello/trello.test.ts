import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { describeCases, dispatchPayload, expectError, expectFixture } from "../kit/testing.js";
import trello from "./index.js";
import { timeMention } from "./messages.js";

describeCases(trello, new URL("./fixtures/cases", import.meta.url));

const here = new URL(".", import.meta.url);
const topic = "Welcome Board";
const cardLink = "[Card name](https://trello.com/c/9BduUcVQ)";

describe("trello: card actions the recorded cases lack", () => {
  it.each([
    ["createCard__in_list", `Ann Lee created ${cardLink}.`],
    ["commentCard__text", `Ann Lee commented on ${cardLink}:\n~~~ quote\nLooks good to me.\n~~~`],
    ["addMemberToCard__member", `Ann Lee added Bob Stone to ${cardLink}.`],
    ["removeLabelFromCard__red", `Ann Lee removed a red label with "urgent" from ${cardLink}.`],
    ["updateCard__renamed", `Ann Lee renamed the card from "Old card name" to ${cardLink}.`],
    [
      "updateCard__description_set",
      `Ann Lee set description for ${cardLink} to:\n~~~ quote\nFirst description\n~~~`,
    ],
    ["updateCard__description_removed", `Ann Lee removed description from ${cardLink}.`],
    ["updateCard__due_date_removed", `Ann Lee removed the due date from ${cardLink}.`],
    [
      "updateCheckItemStateOnCard__unchecked",
      `Ann Lee unchecked **Tomatoes** in **Checklist** (${cardLink}).`,
    ],
  ])("%s", (name, body) => {
    expectFixture(trello, here, name, { topic, body });
  });

  it("words Zulip's fixtures of a removed description and of a comment", () => {
    expectFixture(trello, here, "updateCard__zulip_description_removed", {
      topic: "Welcome Board",
      body: "Marco Matarazzo removed description from [New Card](https://trello.com/c/P2r0z66z).",
    });
    expectFixture(trello, here, "commentCard__zulip_new_comment", {
      topic: "Welcome Board",
      body: "TomaszKolek commented on [New card](https://trello.com/c/xPKXoSTQ):\n~~~ quote\nNew comment\n~~~",
    });
  });

  it("writes due dates as Zulip's time mentions, keeping milliseconds", () => {
    expect(timeMention("2016-05-11T10:00:00.000Z")).toBe("<time:2016-05-11T10:00:00+00:00>");
    expect(timeMention("2016-05-11T10:00:00.250Z")).toBe("<time:2016-05-11T10:00:00.250000+00:00>");
  });

  it("ignores only_events (Zulip's Trello passes no event type)", () => {
    const out = dispatchPayload(
      trello,
      undefined,
      {
        action: {
          type: "createList",
          memberCreator: { fullName: "Ann Lee" },
          data: { board: { name: "Welcome Board", shortLink: "iqXXzYEj" }, list: { name: "Done" } },
        },
      },
      { only_events: '["createCard"]' },
    );
    expect(out).toMatchObject({
      kind: "messages",
      messages: [
        { topic, body: "Ann Lee added Done list to [Welcome Board](https://trello.com/b/iqXXzYEj)." },
      ],
    });
  });

  it("names a missing creator None rather than failing", () => {
    const out = dispatchPayload(trello, undefined, {
      action: {
        type: "createCard",
        memberCreator: {},
        data: { board: { name: "B" }, card: { name: "C", shortLink: "x1" } },
      },
    });
    expect(out).toMatchObject({
      messages: [{ topic: "B", body: "None created [C](https://trello.com/c/x1)." }],
    });
  });

  it.each([
    ["an action type it does not know", { type: "deleteCard", data: {} }, "deleteCard"],
    [
      "a card update it cannot word",
      { type: "updateCard", data: { card: {}, old: { idLabels: [] } } },
      "updateCard",
    ],
    ["a board update it cannot word", { type: "updateBoard", data: { old: { desc: "x" } } }, "updateBoard"],
  ])("rejects %s", (_label, action, event) => {
    const caught = expectError(() => dispatchPayload(trello, undefined, { action }));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: event,
      webhook_name: "Trello",
    });
  });
});

describe("trello: the HEAD check of the callback URL", () => {
  const bot = { id: 7, email: "trello-bot@example.com", fullName: "Trello bot" };
  it("answers HEAD with success", () => {
    expect(trello.handshake?.({ method: "HEAD", params: {}, header: () => undefined, bot })).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
  });
  it("lets notifications (POST) through", () => {
    expect(trello.handshake?.({ method: "POST", params: {}, header: () => undefined, bot })).toBeUndefined();
  });
});

describe("trello: signature", () => {
  const scheme = trello.signature;
  if (scheme === undefined) throw new Error("trello declares a signature");
  const url = "https://chat.example.com/api/v1/external/trello?api_key=abc&stream=trello";
  const request = (sig: string, calledUrl = url): Parameters<typeof verifySignature>[2] => ({
    rawBody: Buffer.from('{"action":{"type":"createCard"}}'),
    header: (name) => (name.toLowerCase() === "x-trello-webhook" ? sig : undefined),
    url: calledUrl,
  });

  it("accepts the base64 HMAC-SHA1 of the body followed by the callback URL", () => {
    expect(() =>
      verifySignature(scheme, "trello-app-secret", request("2C+2bnPDnN8kO0TSDq03dd7wX+4="), 0),
    ).not.toThrow();
  });

  it("rejects the same signature for another callback URL", () => {
    expect(() =>
      verifySignature(
        scheme,
        "trello-app-secret",
        request("2C+2bnPDnN8kO0TSDq03dd7wX+4=", `${url}&topic=x`),
        0,
      ),
    ).toThrow("Webhook signature verification failed.");
  });
});
