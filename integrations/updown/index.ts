import { defineIntegration } from "../kit/index.js";
import type { WebhookContext, WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, truncateTopic } from "../kit/message-text.js";

/** `check.up` → `up`; anything else is named as updown sends it (an unsupported event). */
function eventOf(event: Wild): string {
  const name = event.get("event").str();
  const m = /^check.(.*)$/s.exec(name);
  return m !== null && (m[1] === "up" || m[1] === "down") ? m[1] : name;
}

/** "4 minutes 25 seconds": days, hours, minutes and seconds that are not zero. */
export function durationText(seconds: number): string {
  const parts: [number, string][] = [
    [Math.floor(seconds / 86400), "day"],
    [Math.floor((seconds % 86400) / 3600), "hour"],
    [Math.floor((seconds % 3600) / 60), "minute"],
    [seconds % 60, "second"],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? "" : "s"}`)
    .join(" ");
}

function upBody(event: Wild): string {
  const downtime = event.opt("downtime");
  if (downtime?.opt("started_at") === undefined) return "Service is `up`.";
  const duration = downtime.opt("duration")?.int();
  const after = duration !== undefined && duration > 0 ? durationText(duration) : "";
  return after !== "" ? `Service is \`up\` again after ${after}.` : "Service is `up` again.";
}

function downBody(event: Wild): string {
  const startedAt = event.at("downtime", "started_at").str();
  const iso = isoToSeconds(startedAt);
  const when = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(iso) ? `<time:${iso}>` : startedAt;
  const error = event.at("downtime").opt("error")?.text() ?? "None";
  return `Service is \`down\`. It returned a ${error} error at ${when}.`;
}

/**
 * One message per event of the batch, in a topic named after the checked URL; `only_events` /
 * `exclude_events` apply to each event, as in Zulip.
 */
function messages(p: Wild, ctx: WebhookContext): WebhookMessage[] {
  return p
    .items()
    .filter((event) => ctx.wanted(eventOf(event)))
    .map((event) => ({
      topic: truncateTopic(event.at("check", "url").str()),
      body: eventOf(event) === "down" ? downBody(event) : upBody(event),
    }));
}

/**
 * updown.io: checks going down and coming back up. updown sends a JSON list of events; each becomes
 * a message; `only_events` / `exclude_events` (`up`, `down`) pick events one by one.
 */
export default defineIntegration({
  name: "updown",
  displayName: "Updown",
  categories: ["monitoring"],
  description: "Posts updown.io checks going down and coming back up.",
  classify: ({ payload }) => {
    // Any event of the batch updown does not describe makes the whole request unsupported.
    const names = payload.items().map(eventOf);
    return names.find((n) => n !== "up" && n !== "down") ?? names[0] ?? "up";
  },
  events: {
    up: messages,
    down: messages,
  },
  // Filtered per event by the handler.
  unfilteredEvents: ["up", "down"],
});
