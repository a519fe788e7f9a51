import type { Wild } from "../kit/index.js";
import { senderName } from "./payload.js";

/** Message bodies of GitHub Sponsors events (a port of Zulip's github/view.py, as messages.ts). */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2020-01-05T00:00:00+00:00" → "January 05, 2020" (the date as written, no time-zone shift). */
export function formatSponsorDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (m === null) return iso;
  const [, year = "", month = "", day = ""] = m;
  return `${MONTHS[Number(month) - 1] ?? month} ${day}, ${year}`;
}

function sponsor(p: Wild): string {
  return senderName(p);
}

function tierName(p: Wild): string {
  return p.get("sponsorship").get("tier").get("name").str();
}

function previousTierName(p: Wild): string {
  return p.get("changes").get("tier").get("from").get("name").str();
}

/** The sponsorship event's action: the header for Zulip-style deliveries, else the payload's. */
export function sponsorsBody(event: string, p: Wild): string {
  switch (event) {
    case "cancelled":
      return `${sponsor(p)} cancelled their ${tierName(p)} subscription.`;
    case "created":
      return `${sponsor(p)} subscribed for ${tierName(p)}.`;
    case "edited":
      return `${sponsor(p)} changed who can see their sponsorship from ${p.get("changes").get("privacy_level").get("from").str()} to ${p.get("sponsorship").get("privacy_level").str()}.`;
    case "pending_cancellation":
      return `${sponsor(p)}'s ${tierName(p)} subscription will be cancelled on ${formatSponsorDate(p.get("effective_date").str())}.`;
    case "pending_tier_change":
      return `${sponsor(p)}'s subscription will change from ${previousTierName(p)} to ${tierName(p)} on ${formatSponsorDate(p.get("effective_date").str())}.`;
    default:
      return `${sponsor(p)} changed their subscription from ${previousTierName(p)} to ${tierName(p)}.`;
  }
}
