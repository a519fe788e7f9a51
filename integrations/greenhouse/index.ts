import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

const text = (w: Wild | undefined): string | undefined =>
  typeof w?.value === "string" ? w.value : undefined;

/** Python's `str.title()`: each run of letters capitalized. */
const title = (s: string): string =>
  s.replace(/[A-Za-z]+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());

/** "hector@example.com (Personal), [Resume](https://…)". */
function listText(items: Wild | undefined): string {
  const chunks: string[] = [];
  for (const item of items?.isList() === true ? items.items() : []) {
    const type = title(text(item.opt("type")) ?? "");
    const value = text(item.opt("value"));
    const url = text(item.opt("url"));
    if (type !== "" && value !== undefined && value !== "") chunks.push(`${value} (${type})`);
    else if (type !== "" && url !== undefined && url !== "") chunks.push(`[${type}](${url})`);
  }
  return chunks.join(", ");
}

function candidateOf(p: Wild): Wild | undefined {
  const data = p.opt("payload");
  return p.opt("action")?.value === "update_candidate"
    ? (data?.opt("candidate") ?? data?.optAt("application", "candidate"))
    : (data?.optAt("application", "candidate") ?? data?.opt("candidate"));
}

function candidateEvent(p: Wild): HandlerResult {
  const action = title(p.get("action").str().replace(/_/g, " "));
  const candidate = candidateOf(p);
  const application = p.get("payload").opt("application");
  const id = candidate?.get("id").text() ?? "";
  const listed = application?.opt("candidate") ?? candidate;
  const body =
    `${action} ${text(candidate?.opt("first_name")) ?? ""} ${text(candidate?.opt("last_name")) ?? ""} (ID: ${id}), applying for:\n` +
    `* **Role**: ${text(application?.optAt("jobs", 0, "name")) ?? text(application?.optAt("job", "name")) ?? ""}\n` +
    `* **Emails**: ${listText(listed?.opt("email_addresses"))}\n` +
    `* **Attachments**: ${listText(listed?.opt("attachments"))}`;
  return { topic: truncateTopic(`${action} - ${id}`), body };
}

/** Greenhouse recruiting: applications, stage changes, hires and rejections of candidates. */
export default defineIntegration({
  name: "greenhouse",
  displayName: "Greenhouse",
  categories: ["hr"],
  description: "Posts Greenhouse candidate applications, stage changes, hires and rejections.",
  // Greenhouse signs the body with the web hook's secret key: `Signature: sha256 <hex>`.
  signature: { kind: "hmac", header: "Signature", algorithm: "sha256", prefix: "sha256 " },
  classify: ({ payload }): string => {
    const action = payload.get("action").str();
    if (action === "ping") return "ping";
    return candidateOf(payload) !== undefined ? "candidate" : action;
  },
  events: { candidate: candidateEvent },
  // Sent when the web hook is saved.
  ignoredEvents: ["ping"],
  // Zulip's Greenhouse integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["candidate"],
});
