import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

function seriesTopic(p: Wild): string {
  return truncateTopic(p.at("series", "title").str());
}

/** "Grey's Anatomy - 17x9 - In My Life": the series and its first episode. */
function episodeLine(p: Wild): string {
  const episode = p.at("episodes", 0);
  return (
    `${p.at("series", "title").str()} - ${episode.get("seasonNumber").int()}x` +
    `${episode.get("episodeNumber").int()} - ${episode.get("title").str()}`
  );
}

export function test(): WebhookMessage {
  return { topic: "Sonarr - Test", body: "Sonarr webhook has been successfully configured." };
}

export function health(p: Wild): WebhookMessage {
  return { topic: truncateTopic(`Health ${p.get("level").str()}`), body: `${p.get("message").str()}.` };
}

export function rename(p: Wild): WebhookMessage {
  return { topic: seriesTopic(p), body: `${p.at("series", "title").str()} episodes have been renamed.` };
}

export function seriesDelete(p: Wild): WebhookMessage {
  return { topic: seriesTopic(p), body: `${p.at("series", "title").str()} has been deleted.` };
}

/** An episode imported, or an upgrade replacing a file of lower quality. */
export function download(p: Wild): WebhookMessage {
  if (p.opt("isUpgrade")?.bool() === true) {
    const from = p.at("deletedFiles", 0, "quality").str();
    const to = p.at("episodeFile", "quality").str();
    return { topic: seriesTopic(p), body: `${episodeLine(p)} has been upgraded from ${from} to ${to}.` };
  }
  return { topic: seriesTopic(p), body: `${episodeLine(p)} has been imported.` };
}

export function grab(p: Wild): WebhookMessage {
  return { topic: seriesTopic(p), body: `${episodeLine(p)} has been grabbed.` };
}

export function episodeFileDelete(p: Wild): WebhookMessage {
  return p.opt("deleteReason")?.str() === "upgrade"
    ? { topic: seriesTopic(p), body: `${episodeLine(p)} has been deleted due to quality upgrade.` }
    : { topic: seriesTopic(p), body: `${episodeLine(p)} has been deleted.` };
}
