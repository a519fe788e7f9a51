import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody, truncateTopic } from "../kit/message-text.js";

const SERVICES_LIMIT = 5;

/** Freshstatus's "2021-04-12 16:29:00+00:00" as a Zulip global time (text in another shape as sent). */
export function globalTime(text: string): string {
  const iso = isoToSeconds(text);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso)) return text;
  return `<time:${/[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}+00:00`}>`;
}

/** The comma-separated `affected_services`, five at most, then how many more. */
function servicesList(p: Wild): string {
  const services = p.get("affected_services").str().split(",");
  let out = services
    .slice(0, SERVICES_LIMIT)
    .map((s) => `* ${s}\n`)
    .join("");
  if (services.length > SERVICES_LIMIT) out += `[and ${services.length - SERVICES_LIMIT} more service(s)]`;
  return out.trimEnd();
}

/** Freshstatus's "Test" button sends an INCIDENT_OPEN for incident id "1". */
export function isTestEvent(p: Wild): boolean {
  return p.at("event_data", "event_type").str() === "INCIDENT_OPEN" && p.get("id").text() === "1";
}

function titled(p: Wild, body: string): WebhookMessage {
  return { topic: truncateTopic(p.get("title").str()), body: normalizeBody(body) };
}

export function incidentOpen(p: Wild): WebhookMessage {
  if (isTestEvent(p)) {
    return { topic: "Freshstatus", body: "Freshstatus webhook has been successfully configured." };
  }
  return titled(
    p,
    `The following incident has been opened: **${p.get("title").str()}**\n` +
      `**Description:** ${p.get("description").str()}\n` +
      `**Start Time:** ${globalTime(p.get("start_time").str())}\n` +
      `**Affected Services:**\n${servicesList(p)}`,
  );
}

export function maintenancePlanned(p: Wild): WebhookMessage {
  return titled(
    p,
    `The following scheduled maintenance has been opened: **${p.get("title").str()}**\n` +
      `**Description:** ${p.get("description").str()}\n` +
      `**Scheduled Start Time:** ${globalTime(p.get("scheduled_start_time").str())}\n` +
      `**Scheduled End Time:** ${globalTime(p.get("scheduled_end_time").str())}\n` +
      `**Affected Services:**\n${servicesList(p)}`,
  );
}

/** What Zulip posts for an event it knows but does not describe (INCIDENT_REOPEN). */
export function notSupportedYet(p: Wild): WebhookMessage {
  return titled(p, `The event (${p.at("event_data", "event_type").str()}) is not supported yet.`);
}

/** A note on an incident: "Closed" closes it, "Open" is a plain note (other statuses: not described). */
export function incidentNote(p: Wild): WebhookMessage {
  const status = p.get("incident_status").str();
  const note = `**Note:** ${p.get("message").str()}`;
  const title = p.get("title").str();
  if (status === "Closed") return titled(p, `The following incident has been closed: **${title}**\n${note}`);
  if (status === "Open") {
    return titled(p, `The following note has been added to the incident: **${title}**\n${note}`);
  }
  return notSupportedYet(p);
}

export function maintenanceNote(p: Wild): WebhookMessage {
  const title = p.get("title").str();
  const note = `**Note:** ${p.get("message").str()}`;
  return p.get("incident_status").str() === "Closed"
    ? titled(p, `The following scheduled maintenance has been closed: **${title}**\n${note}`)
    : titled(p, `The following note has been added to the scheduled maintenance: **${title}**\n${note}`);
}
