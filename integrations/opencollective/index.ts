import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";

const text = (w: Wild | undefined): string | undefined =>
  typeof w?.value === "string" ? w.value : undefined;

/** "€1.00", from the order's formatted amount (or its cents and currency). */
function amount(order: Wild | undefined): string {
  const formatted = text(order?.opt("formattedAmount")) ?? text(order?.opt("formattedAmountWithInterval"));
  if (formatted !== undefined) return formatted;
  const cents = order?.opt("totalAmount")?.value;
  const currency = text(order?.opt("currency")) ?? "";
  return typeof cents === "number" ? `${(cents / 100).toFixed(2)} ${currency}`.trim() : "an unknown amount";
}

function newMember(p: Wild): HandlerResult {
  const data = p.get("data");
  const name = data.get("member").get("memberCollective").get("name").str();
  const donated = amount(data.opt("order"));
  const body =
    name === "Incognito"
      ? `An **Incognito** member donated **${donated}**! :tada:`
      : `@_**${name}** donated **${donated}**! :tada:`;
  return { topic: "New Member", body };
}

/** Open Collective: new members and their contributions. */
export default defineIntegration({
  name: "opencollective",
  displayName: "OpenCollective",
  categories: ["financial"],
  description: "Posts new Open Collective members and their contributions.",
  classify: ({ payload }): string =>
    payload.optAt("data", "member") !== undefined
      ? "collective.member.created"
      : (payload.opt("type")?.text() ?? "unknown"),
  events: { "collective.member.created": newMember },
  // Zulip's Open Collective integration names no event types: only_events never drops a member.
  unfilteredEvents: ["collective.member.created"],
});
