import { InvalidPayloadError } from "../../src/errors.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

function movie(p: Wild): string {
  return p.at("movie", "title").str();
}

function aboutMovie(p: Wild, body: string): WebhookMessage {
  return { topic: truncateTopic(movie(p)), body };
}

export function test(): WebhookMessage {
  return { topic: "Radarr - Test", body: "Radarr webhook has been successfully configured." };
}

export function applicationUpdate(p: Wild): WebhookMessage {
  return {
    topic: "Radarr - Application update",
    body: `Radarr was updated from ${p.get("previousVersion").str()} to ${p.get("newVersion").str()}.`,
  };
}

export function health(p: Wild): WebhookMessage {
  return { topic: truncateTopic(`Health ${p.get("level").str()}`), body: `${p.get("message").str()}.` };
}

export function rename(p: Wild): WebhookMessage {
  return aboutMovie(p, `The movie ${movie(p)} has been renamed.`);
}

export function download(p: Wild): WebhookMessage {
  if (p.opt("isUpgrade")?.bool() === true) {
    const from = p.at("deletedFiles", 0, "quality").str();
    const to = p.at("movieFile", "quality").str();
    return aboutMovie(p, `The movie ${movie(p)} has been upgraded from ${from} to ${to}.`);
  }
  return aboutMovie(p, `The movie ${movie(p)} has been imported.`);
}

export function grab(p: Wild): WebhookMessage {
  return aboutMovie(p, `The movie ${movie(p)} has been grabbed.`);
}

export function movieDelete(p: Wild): WebhookMessage {
  const files = p.opt("deletedFiles")?.bool() === true ? "also" : "not";
  return aboutMovie(p, `The movie ${movie(p)} was deleted; its files were ${files} deleted.`);
}

const DELETE_REASONS: Readonly<Record<string, string>> = {
  missingFromDisk: "because it is missing from disk",
  manual: "manually",
  upgrade: "because an upgraded version exists",
  noLinkedEpisodes: "because it has no linked episodes",
  manualOverride: "via manual override",
};

export function movieFileDelete(p: Wild): WebhookMessage {
  const reasonKey = p.get("deleteReason").str();
  const reason = DELETE_REASONS[reasonKey];
  if (reason === undefined) {
    throw new InvalidPayloadError(`deleteReason is not one of ${Object.keys(DELETE_REASONS).join(", ")}`);
  }
  return aboutMovie(
    p,
    `A file with quality ${p.at("movieFile", "quality").str()} for the movie ${movie(p)} was deleted, ${reason}.`,
  );
}

export function movieAdded(p: Wild): WebhookMessage {
  return aboutMovie(p, `The movie ${movie(p)} was added.`);
}
