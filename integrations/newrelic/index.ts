import { defineIntegration } from "../kit/index.js";
import { incidentMessage, missingFields, missingFieldsMessage } from "./messages.js";

/** The event for a template that lacks fields Zulip needs: a warning, never filtered (as in Zulip). */
const MISSING_FIELDS = "missing_fields";

/**
 * New Relic workflows: an issue created, activated (or acknowledged) and closed, in a topic named
 * after the issue. Zulip's event names are the issue states.
 */
export default defineIntegration({
  name: "newrelic",
  displayName: "NewRelic",
  categories: ["monitoring"],
  description:
    "Posts New Relic alert issues (created, activated, acknowledged, closed) from a workflow's webhook.",
  classify: ({ payload }) => {
    if (missingFields(payload).length > 0) return MISSING_FIELDS;
    // Any other state is an unsupported event (the pipeline says so).
    return payload.get("state").str();
  },
  events: {
    CREATED: (p, ctx) => incidentMessage(p, ctx.rawBody),
    ACTIVATED: (p, ctx) => incidentMessage(p, ctx.rawBody),
    CLOSED: (p, ctx) => incidentMessage(p, ctx.rawBody),
    [MISSING_FIELDS]: (p) => missingFieldsMessage(missingFields(p)),
  },
  unfilteredEvents: [MISSING_FIELDS],
});
