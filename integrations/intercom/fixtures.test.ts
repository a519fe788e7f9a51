import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import intercom from "./index.js";

const here = new URL(".", import.meta.url);

/** Zulip's own Intercom fixtures beyond the recorded cases, with the message Zulip's tests expect. */
const ZULIP: [string, { topic: string; body: string }][] = [
  ["user.deleted__zulip", { topic: "User: jerryguitarist@gmail.com", body: "User deleted." }],
  [
    "user.email.updated__zulip",
    { topic: "Contact: Azure Bus from St. John's", body: "User's email was updated to aaron@zulip.com." },
  ],
  ["event.created__zulip", { topic: "Events", body: "New event **invited-friend** created." }],
];

describe("intercom: Zulip's other fixtures", () => {
  for (const [name, expected] of ZULIP) {
    it(`posts ${name} as Zulip does`, () => {
      expectFixture(intercom, here, name, expected);
    });
  }
});
