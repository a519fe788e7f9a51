import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/**
 * Radarr's Connect → Webhook: movies added, grabbed, imported (or upgraded), renamed and deleted,
 * movie files deleted, application updates, health issues and the test message. Event names are
 * Radarr's `eventType`.
 */
export default defineIntegration({
  name: "radarr",
  displayName: "Radarr",
  categories: ["entertainment"],
  description:
    "Posts Radarr movie grabs, imports, upgrades, renames and deletions, updates and health issues.",
  classify: ({ payload }) => payload.get("eventType").str(),
  events: {
    Test: () => m.test(),
    ApplicationUpdate: (p) => m.applicationUpdate(p),
    Health: (p) => m.health(p),
    Rename: (p) => m.rename(p),
    Download: (p) => m.download(p),
    Grab: (p) => m.grab(p),
    MovieDelete: (p) => m.movieDelete(p),
    MovieFileDelete: (p) => m.movieFileDelete(p),
    MovieAdded: (p) => m.movieAdded(p),
  },
});
