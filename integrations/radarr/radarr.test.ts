import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import radarr from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(radarr, new URL("./fixtures/cases", import.meta.url));

describe("radarr: events the recorded cases lack", () => {
  it("posts an application update", () => {
    expectFixture(radarr, here, "ApplicationUpdate__update", {
      topic: "Radarr - Application update",
      body: "Radarr was updated from 4.2.0.6370 to 4.2.0.6372.",
    });
  });

  it("posts a health warning", () => {
    expectFixture(radarr, here, "Health__warning", {
      topic: "Health warning",
      body: "No download client is available.",
    });
  });

  it("posts an added movie", () => {
    expectFixture(radarr, here, "MovieAdded__added", {
      topic: "Batman v Superman: Dawn of Justice",
      body: "The movie Batman v Superman: Dawn of Justice was added.",
    });
  });

  it("posts a deleted movie file with the reason", () => {
    expectFixture(radarr, here, "MovieFileDelete__missing_from_disk", {
      topic: "Marley & Me",
      body: "A file with quality Bluray-1080p for the movie Marley & Me was deleted, because it is missing from disk.",
    });
  });

  it("posts a grabbed movie", () => {
    expectFixture(radarr, here, "Grab__movie_grabbed", {
      topic: "Greenland",
      body: "The movie Greenland has been grabbed.",
    });
  });

  it("posts an import and an upgrade", () => {
    expectFixture(radarr, here, "Download__imported", {
      topic: "Batman v Superman: Dawn of Justice",
      body: "The movie Batman v Superman: Dawn of Justice has been imported.",
    });
    expectFixture(radarr, here, "Download__upgrade", {
      topic: "Greenland",
      body: "The movie Greenland has been upgraded from WEBRip-720p to WEBRip-1080p.",
    });
  });

  it("says when a deleted movie's files were kept", () => {
    const payload = { movie: { title: "Heat" }, deletedFiles: false, eventType: "MovieDelete" };
    expect(dispatchPayload(radarr, undefined, payload)).toMatchObject({
      messages: [{ topic: "Heat", body: "The movie Heat was deleted; its files were not deleted." }],
    });
  });

  it("rejects a delete reason Radarr does not document", () => {
    const payload = {
      movie: { title: "Heat" },
      movieFile: { quality: "q" },
      deleteReason: "cosmic",
      eventType: "MovieFileDelete",
    };
    expect(() => dispatchPayload(radarr, undefined, payload)).toThrow("deleteReason is not one of");
  });
});
