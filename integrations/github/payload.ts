import type { Wild } from "../kit/index.js";

/** Fields of GitHub payloads that many events read (messages.ts, sponsors-messages.ts, actions.ts). */

/** Reads a string that GitHub may send as null. */
export function nullableStr(w: Wild | undefined): string | null {
  return w === undefined || w.isNull() ? null : w.str();
}

export function senderName(p: Wild): string {
  return p.get("sender").get("login").str();
}

export function repositoryName(p: Wild): string {
  return p.get("repository").get("name").str();
}

export function repositoryFullName(p: Wild): string {
  return p.get("repository").get("full_name").str();
}

export function repositoryUrl(p: Wild): string {
  return p.get("repository").get("html_url").str();
}

export function organizationName(p: Wild): string {
  return p.get("organization").get("login").str();
}
