import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

/**
 * Lidarr's Connect → Webhook: albums grabbed, tracks imported (or upgraded), renamed and retagged,
 * and the test message. Event names are Lidarr's `eventType`.
 */
export default defineIntegration({
  name: "lidarr",
  displayName: "Lidarr",
  categories: ["entertainment"],
  description: "Posts Lidarr album grabs and track imports, upgrades, renames and retags.",
  classify: ({ payload }) => payload.get("eventType").str(),
  events: {
    Test: () => m.test(),
    Grab: (p) => m.grab(p),
    Rename: (p) => m.rename(p),
    Retag: (p) => m.retag(p),
    Download: (p) => m.download(p),
  },
});
