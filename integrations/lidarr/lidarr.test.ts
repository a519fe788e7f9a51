import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import lidarr from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(lidarr, new URL("./fixtures/cases", import.meta.url));

describe("lidarr: events the recorded cases lack", () => {
  it("posts the test message", () => {
    expectFixture(lidarr, here, "Test__test", {
      topic: "Lidarr - Test",
      body: "Lidarr webhook has been successfully configured.",
    });
  });

  it("posts a grabbed album", () => {
    expectFixture(lidarr, here, "Grab__album_grabbed", {
      topic: "UB40",
      body: "The album Labour of Love by UB40 has been grabbed.",
    });
  });

  it("posts renamed tracks", () => {
    expectFixture(lidarr, here, "Rename__tracks_renamed", {
      topic: "Little Mix",
      body: "The artist Little Mix has had its tracks renamed.",
    });
  });

  it("lists the first twenty of thirty imported tracks (Zulip's lidarr_tracks_imported_over_limit)", () => {
    expectFixture(lidarr, here, "Download__tracks_imported_over_limit", {
      topic: "Michael Jackson",
      body:
        "The following tracks by Michael Jackson have been imported:\n" +
        "* Scream\n" +
        "* Billie Jean\n" +
        "* The Way You Make Me Feel\n" +
        "* They Don’t Care About Us\n" +
        "* Stranger in Moscow\n" +
        "* Black or White\n" +
        "* This Time Around\n" +
        "* Rock With You\n" +
        "* Earth Song\n" +
        "* She’s Out of My Life\n" +
        "* D.S.\n" +
        "* Bad\n" +
        "* Money\n" +
        "* I Just Can’t Stop Loving You\n" +
        "* Man in the Mirror\n" +
        "* Come Together\n" +
        "* Thriller\n" +
        "* You Are Not Alone\n" +
        "* Beat It\n" +
        "* Childhood (theme from “Free Willy 2”)\n" +
        "[and 10 more tracks(s)]",
    });
  });

  it("lists twenty tracks at most", () => {
    const tracks = Array.from({ length: 23 }, (_, i) => ({ title: `T${i + 1}` }));
    const outcome = dispatchPayload(lidarr, undefined, {
      eventType: "Download",
      isUpgrade: false,
      artist: { name: "A" },
      tracks,
    });
    expect(outcome).toMatchObject({
      messages: [
        {
          topic: "A",
          body:
            "The following tracks by A have been imported:\n" +
            Array.from({ length: 20 }, (_, i) => `* T${i + 1}\n`).join("") +
            "[and 3 more tracks(s)]",
        },
      ],
    });
  });

  it("rejects event types it does not describe", () => {
    expect(() => dispatchPayload(lidarr, undefined, { eventType: "AlbumDelete" })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "AlbumDelete" }),
    );
  });
});
