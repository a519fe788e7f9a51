import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import sonarr from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(sonarr, new URL("./fixtures/cases", import.meta.url));

describe("sonarr: events the recorded cases lack", () => {
  it("posts the test message", () => {
    expectFixture(sonarr, here, "Test__test", {
      topic: "Sonarr - Test",
      body: "Sonarr webhook has been successfully configured.",
    });
  });

  it("posts renamed episodes", () => {
    expectFixture(sonarr, here, "Rename__episodes_renamed", {
      topic: "The L Word",
      body: "The L Word episodes have been renamed.",
    });
  });

  it("posts a grabbed episode", () => {
    expectFixture(sonarr, here, "Grab__episode_grabbed", {
      topic: "NCIS",
      body: "NCIS - 18x10 - Watchdog has been grabbed.",
    });
  });

  it("posts a deleted episode file, and one deleted for an upgrade", () => {
    expectFixture(sonarr, here, "EpisodeFileDelete__episode_deleted", {
      topic: "Breaking Bad",
      body: "Breaking Bad - 1x1 - Pilot has been deleted.",
    });
    expectFixture(sonarr, here, "EpisodeFileDelete__episode_deleted_upgrade", {
      topic: "S.W.A.T. (2017)",
      body: "S.W.A.T. (2017) - 4x10 - Buried has been deleted due to quality upgrade.",
    });
  });

  it("posts a health error", () => {
    expectFixture(sonarr, here, "Health__error", {
      topic: "Health error",
      body: "No indexers available with RSS sync enabled, Sonarr will not grab new releases automatically.",
    });
  });

  it("reads an import without isUpgrade as a plain import", () => {
    expectFixture(sonarr, here, "Download__without_upgrade_flag", {
      topic: "Grey's Anatomy",
      body: "Grey's Anatomy - 17x9 - In My Life has been imported.",
    });
  });

  it("filters on eventType and rejects types it does not describe", () => {
    expect(
      dispatchPayload(sonarr, undefined, { eventType: "Test" }, { exclude_events: '["Test"]' }).kind,
    ).toBe("filtered");
    expect(() => dispatchPayload(sonarr, undefined, { eventType: "ApplicationUpdate" })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "ApplicationUpdate" }),
    );
  });
});
