import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";

const TOPIC = "membership notifications";

const attributes = (p: Wild): Wild => p.get("data").get("attributes");

/** A nullable string attribute (`last_charge_status`, `patron_status`). */
function optional(p: Wild, key: string): string | null {
  const v = attributes(p).opt(key)?.value;
  return typeof v === "string" ? v : null;
}

const userName = (p: Wild): string => attributes(p).get("full_name").str();

const pledgeAmount = (p: Wild): number =>
  (attributes(p).opt("currently_entitled_amount_cents")?.num() ?? 0) / 100;

/** The campaign among the included resources (Patreon lists it first). */
function campaign(p: Wild): Wild | undefined {
  const included = p.opt("included")?.items() ?? [];
  return (included.find((i) => i.opt("type")?.value === "campaign") ?? included[0])?.opt("attributes");
}

function patronCountLine(p: Wild): string {
  const count = campaign(p)?.opt("patron_count")?.text();
  return count === undefined ? "" : `\nTotal number of patrons: ${count}`;
}

const payPer = (p: Wild): string => campaign(p)?.opt("pay_per_name")?.text() ?? "month";

const isPaidOrNew = (status: string | null): boolean => status === "Paid" || status === null;

const message = (body: string): HandlerResult => ({ topic: TOPIC, body });

/** Patreon members and pledges on a creator's campaign, as Zulip words them. */
export default defineIntegration({
  name: "patreon",
  displayName: "Patreon",
  categories: ["financial"],
  description: "Posts new and departing Patreon members and their pledges.",
  eventHeader: "X-Patreon-Event",
  // Patreon signs the body with the webhook's secret: hex HMAC-MD5 in X-Patreon-Signature.
  signature: { kind: "hmac", header: "X-Patreon-Signature", algorithm: "md5" },
  events: {
    "members:create": (p) =>
      // Members who never pledged (both statuses null) have just joined.
      optional(p, "last_charge_status") === null && optional(p, "patron_status") === null
        ? message(`${userName(p)} has joined as a member!`)
        : null,
    "members:update": (p) => {
      const status = optional(p, "patron_status");
      return isPaidOrNew(optional(p, "last_charge_status")) &&
        (status === "active_patron" || status === "former_patron")
        ? message(`${userName(p)}'s membership has been updated to ${status.replace(/_/g, " ")}.`)
        : null;
    },
    "members:delete": (p) =>
      isPaidOrNew(optional(p, "last_charge_status")) && optional(p, "patron_status") !== "declined_patron"
        ? message(`${userName(p)}'s membership has ended.`)
        : null,
    "members:pledge:create": (p) =>
      isPaidOrNew(optional(p, "last_charge_status")) && pledgeAmount(p) > 0
        ? message(
            `${userName(p)} has pledged $${pledgeAmount(p).toFixed(2)} per ${payPer(p)}. :tada:${patronCountLine(p)}`,
          )
        : null,
    "members:pledge:update": (p) =>
      isPaidOrNew(optional(p, "last_charge_status")) && pledgeAmount(p) > 0
        ? message(
            `${userName(p)} has updated their pledge to $${pledgeAmount(p).toFixed(2)} per ${payPer(p)}. :gear:`,
          )
        : null,
    "members:pledge:delete": (p) => {
      const status = optional(p, "last_charge_status");
      return isPaidOrNew(status) || status === "Deleted"
        ? message(`${userName(p)}'s pledge has been cancelled. :cross_mark:${patronCountLine(p)}`)
        : null;
    },
  },
  // Patreon's deprecated v1 events.
  ignoredEvents: ["pledges:create", "pledges:update", "pledges:delete"],
});
