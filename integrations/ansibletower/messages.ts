import type { WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * The kind of job: AWX's `friendly_name`, or (AWX 9+, which dropped it) the segment of the job URL
 * (`…/#/jobs/playbook/1` → "playbook"), where the plain jobs list means a playbook "Job".
 */
export function friendlyName(p: Wild): string {
  const named = p.opt("friendly_name")?.str() ?? "";
  if (named !== "") return named;
  const segments = p.get("url").str().split("/");
  const kind = segments[segments.length - 3] ?? "";
  return kind === "jobs" ? "Job" : kind;
}

function statusText(p: Wild): string {
  return p.get("status").str() === "successful" ? "was successful" : "failed";
}

/** Hosts of a playbook job, sorted by name, each with Success or Failed. */
function hostRows(p: Wild): string {
  const hosts = p.opt("hosts");
  if (hosts === undefined) return "";
  return hosts
    .entries()
    .map(([name, data]) => [name, data.opt("failed")?.bool() === true ? "Failed" : "Success"] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, status]) => `* ${name}: ${status}\n`)
    .join("");
}

/** One finished job (playbook run, project/inventory update, ad hoc command, system job). */
export function jobMessage(p: Wild): WebhookMessage {
  const kind = friendlyName(p);
  const name = p.get("name").str();
  const link = `${kind}: [#${p.get("id").int()} ${name}](${p.get("url").str()}) ${statusText(p)}`;
  // A playbook job lists its hosts; without a `hosts` object (AWX 9+ project updates also say
  // "jobs" in their URL) the sentence simply ends.
  const hosts = kind === "Job" ? hostRows(p) : "";
  const body = hosts !== "" ? `${link}:\n${hosts}` : `${link}.`;
  return { topic: truncateTopic(name), body: normalizeBody(body) };
}
