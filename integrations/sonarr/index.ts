import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/**
 * Sonarr's Connect → Webhook: episodes grabbed, imported (or upgraded), renamed and deleted, series
 * deleted, health issues and the test message. Event names are Sonarr's `eventType`.
 */
export default defineIntegration({
  name: "sonarr",
  displayName: "Sonarr",
  categories: ["entertainment"],
  description: "Posts Sonarr episode grabs, imports, upgrades, renames and deletions, and health issues.",
  classify: ({ payload }) => payload.get("eventType").str(),
  events: {
    Test: () => m.test(),
    Health: (p) => m.health(p),
    Rename: (p) => m.rename(p),
    SeriesDelete: (p) => m.seriesDelete(p),
    Download: (p) => m.download(p),
    Grab: (p) => m.grab(p),
    EpisodeFileDelete: (p) => m.episodeFileDelete(p),
  },
});
