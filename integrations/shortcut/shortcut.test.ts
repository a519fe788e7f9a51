import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload } from "../kit/testing.js";
import shortcut from "./index.js";

describeCases(shortcut, new URL("./fixtures/cases", import.meta.url));

describe("shortcut: the integration Clubhouse became", () => {
  it("names itself Shortcut in an unsupported event's error", () => {
    const p = { id: "1", primary_id: 5, actions: [{ id: 5, entity_type: "workspace", action: "update" }] };
    expect(() => dispatchPayload(shortcut, undefined, p)).toThrow(
      "The 'workspace_update' event isn't currently supported by the Shortcut webhook",
    );
  });
});
