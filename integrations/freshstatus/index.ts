import { InvalidPayloadError, WebhookMisconfiguredError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import {
  incidentNote,
  incidentOpen,
  maintenanceNote,
  maintenancePlanned,
  notSupportedYet,
} from "./messages.js";

/** Zulip's notice to the bot's owner about a misconfigured webhook. */
export const MISCONFIGURED_PAYLOAD_NOTICE = `
Hi there! Your bot {bot_name} just received a Freshstatus payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Freshstatus webhook settings. Please make sure that you provide all the required parameters
when configuring the Freshstatus webhook. Contact {support_email} if you
need further help!
`;

/**
 * A payload missing what the templates of Zulip's setup guide provide (a misconfigured webhook):
 * the bot's owner is told (once a minute at most) and the answer is Zulip's "Invalid payload".
 */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof InvalidPayloadError) {
      throw new WebhookMisconfiguredError(MISCONFIGURED_PAYLOAD_NOTICE, "Invalid payload");
    }
    throw err;
  }
}

function handler(render: (p: Wild) => WebhookMessage): (p: Wild) => WebhookMessage {
  return (p) => checked(() => render(p));
}

/** Handlers by Freshstatus's event type; `other` is every type not named here. */
const EVENTS = {
  INCIDENT_OPEN: handler(incidentOpen),
  INCIDENT_NOTE_CREATE: handler(incidentNote),
  MAINTENANCE_PLANNED: handler(maintenancePlanned),
  MAINTENANCE_NOTE_CREATE: handler(maintenanceNote),
  // Known to Zulip but not described: it says so in the incident's topic.
  INCIDENT_REOPEN: handler(notSupportedYet),
  // A type Freshstatus added later (COMPONENT_UPDATE…): Zulip says so in the title's topic too;
  // only_events / exclude_events match the type's own name, never "other".
  other: (p: Wild, ctx: { wanted(name: string): boolean }) =>
    ctx.wanted(p.at("event_data", "event_type").str()) ? checked(() => notSupportedYet(p)) : null,
};

/**
 * Freshstatus status-page webhooks: incidents opened, notes on incidents and scheduled maintenance
 * (a note with status Closed closes them), and maintenance planned. Event names are Freshstatus's
 * `event_data.event_type`.
 */
export default defineIntegration({
  name: "freshstatus",
  displayName: "Freshstatus",
  categories: ["monitoring"],
  description: "Posts Freshstatus incidents, scheduled maintenance and their notes.",
  classify: ({ payload }) => {
    const type = checked(() => payload.at("event_data", "event_type").str());
    return type !== "other" && type in EVENTS ? type : "other";
  },
  // Every other type is posted as not supported yet; only_events / exclude_events see its own name.
  unfilteredEvents: ["other"],
  events: EVENTS,
});
