import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody, truncateTopic } from "../kit/message-text.js";

/** Canarytokens (from the Canary console) and Canaries (devices) are told apart by `AlertType`. */
export function isCanarytoken(p: Wild): boolean {
  return p.opt("AlertType")?.str() === "CanarytokenIncident";
}

export function canaryKind(p: Wild): "canarytoken" | "canary" {
  return isCanarytoken(p) ? "canarytoken" : "canary";
}

export function canaryName(p: Wild): string {
  return isCanarytoken(p) ? p.get("Reminder").str() : p.get("CanaryName").str();
}

/**
 * Thinkst's timestamps, "YYYY-MM-DD HH:MM:SS (UTC)", as a Zulip global time. Text in another shape
 * is shown as sent rather than rejected.
 */
export function thinkstTime(text: string): string {
  const iso = isoToSeconds(text.replace(" (UTC)", "Z"));
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso)) return text;
  return `<time:${/[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}+00:00`}>`;
}

function str(p: Wild, key: string): string | undefined {
  return p.opt(key)?.text();
}

/** An `AdditionalDetails` value: text, with masked values (passwords, keys: `***`) in backticks. */
function detailLine(detail: Wild): string {
  const key = detail.index(0).text();
  const value = detail.index(1);
  const text = value.value === true ? "True" : value.value === false ? "False" : value.text();
  return typeof value.value === "string" && text.includes("*")
    ? `**${key}:** \`${text}\`\n`
    : `**${key}:** ${text}\n`;
}

/** An incident of a Canary or a Canarytoken, in the layout of Zulip's Thinkst integration. */
export function incidentMessage(p: Wild): WebhookMessage {
  const kind = canaryKind(p);
  const name = canaryName(p);
  const title = kind === "canarytoken" ? "Canarytoken" : "Canary";
  let body = `**:alert: ${title} *${name}* has been triggered!**\n\n${p.get("Intro").str()}\n\n`;
  const hash = str(p, "IncidentHash");
  if (hash !== undefined) body += `**Incident ID:** \`${hash}\`\n`;
  const token = str(p, "Token");
  if (token !== undefined) body += `**Token:** \`${token}\`\n`;
  const description = str(p, "Description");
  if (description !== undefined) body += `**Kind:** ${description}\n`;
  const timestamp = str(p, "Timestamp");
  if (timestamp !== undefined) body += `**Timestamp:** ${thinkstTime(timestamp)}\n`;
  const canaryIp = str(p, "CanaryIP");
  if (canaryIp !== undefined) body += `**Canary IP:** \`${canaryIp}\`\n`;
  const location = str(p, "CanaryLocation");
  if (location !== undefined) body += `**Canary location:** ${location}\n`;
  const triggered = p.opt("Triggered")?.text();
  if (triggered !== undefined)
    body += `**Triggered:** ${triggered} ${Number(triggered) > 1 ? "times" : "time"}\n`;
  const sourceIp = str(p, "SourceIP");
  if (sourceIp !== undefined && sourceIp !== "") body += `**Source IP:** \`${sourceIp}\`\n`;
  // ReverseDNS is often present but empty.
  const reverseDns = str(p, "ReverseDNS");
  if (reverseDns !== undefined && reverseDns !== "") body += `**Reverse DNS:** \`${reverseDns}\`\n`;
  for (const detail of p.opt("AdditionalDetails")?.items() ?? []) body += detailLine(detail);
  return { topic: truncateTopic(`${kind} alert - ${name}`), body: normalizeBody(body) };
}
