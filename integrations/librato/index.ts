import { JsonableError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { Wild } from "../kit/index.js";
import { libratoBody } from "./body.js";
import { alertCleared, alertTriggered, snapshots } from "./messages.js";

/**
 * AppOptics / Librato alerts: an alert triggered (its violated conditions) or cleared, and chart
 * snapshots shared to the service. Zulip passes no event type, so filters never drop them.
 */
export default defineIntegration({
  name: "librato",
  displayName: "Librato",
  categories: ["monitoring"],
  description: "Posts AppOptics/Librato alerts (triggered, cleared) and shared chart snapshots.",
  body: libratoBody(),
  classify: ({ payload }): string => {
    const alert = payload.get("payload");
    const attachments = payload.get("attachments");
    if (!Wild.truthy(alert) && !Wild.truthy(attachments)) throw new JsonableError("Malformed JSON input");
    if (Wild.truthy(alert.opt("clear"))) return "clear";
    if (Wild.truthy(alert.opt("violations"))) return "violations";
    if (attachments.isList() && Wild.truthy(attachments.items()[0]?.opt("image_url"))) return "snapshot";
    throw new JsonableError("Unexpected message type");
  },
  events: {
    clear: (p) => alertCleared(p),
    violations: (p) => alertTriggered(p),
    snapshot: (p) => snapshots(p),
  },
  unfilteredEvents: ["clear", "violations", "snapshot"],
});
