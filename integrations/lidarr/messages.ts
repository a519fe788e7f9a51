import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

const TRACKS_LIMIT = 20;

function artist(p: Wild): string {
  return p.at("artist", "name").str();
}

function aboutArtist(p: Wild, body: string): WebhookMessage {
  return { topic: truncateTopic(artist(p)), body };
}

/** The imported tracks, twenty at most, then how many more. */
function trackList(p: Wild): string {
  const titles = p
    .get("tracks")
    .items()
    .map((t) => t.get("title").str());
  let out = titles
    .slice(0, TRACKS_LIMIT)
    .map((t) => `* ${t}\n`)
    .join("");
  if (titles.length > TRACKS_LIMIT) out += `[and ${titles.length - TRACKS_LIMIT} more tracks(s)]`;
  return out.trimEnd();
}

export function test(): WebhookMessage {
  return { topic: "Lidarr - Test", body: "Lidarr webhook has been successfully configured." };
}

export function grab(p: Wild): WebhookMessage {
  return aboutArtist(p, `The album ${p.at("albums", 0, "title").str()} by ${artist(p)} has been grabbed.`);
}

export function rename(p: Wild): WebhookMessage {
  return aboutArtist(p, `The artist ${artist(p)} has had its tracks renamed.`);
}

export function retag(p: Wild): WebhookMessage {
  return aboutArtist(p, `The artist ${artist(p)} has had its tracks retagged.`);
}

export function download(p: Wild): WebhookMessage {
  const upgrade = p.opt("isUpgrade")?.bool() === true;
  return aboutArtist(
    p,
    `The following tracks by ${artist(p)} have been imported${upgrade ? " due to upgrade" : ""}:\n${trackList(p)}`,
  );
}
