import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { fixtureRequest } from "../kit/fixtures.js";
import { describeCases, dispatchPayload, expectError } from "../kit/testing.js";
import shortcut from "./index.js";

describeCases(shortcut, new URL("./fixtures/cases", import.meta.url));

describe("shortcut: the integration Clubhouse became", () => {
  it("names itself Shortcut in an unsupported event's error", () => {
    const p = { id: "1", primary_id: 5, actions: [{ id: 5, entity_type: "workspace", action: "update" }] };
    expect(() => dispatchPayload(shortcut, undefined, p)).toThrow(
      "The 'workspace_update' event isn't currently supported by the Shortcut webhook",
    );
  });

  // Zulip's test_missing_primary_action: its story_create fixture with primary_id 12, which no action has.
  it("rejects a payload whose primary_id names none of its actions, as Zulip does", () => {
    const here = new URL(".", import.meta.url);
    const caught = expectError(() =>
      dispatchWebhook(shortcut, fixtureRequest(shortcut, here, "story_create__missing_primary_action")),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "ANOMALOUS_WEBHOOK_PAYLOAD",
      msg: "Unable to parse request: Did Clubhouse generate this event?",
    });
  });
});
