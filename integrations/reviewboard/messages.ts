import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** Review Board's webhook events, worded as Zulip's Review Board integration words them. */

/** Python's truthiness of an optional string. */
function nonEmpty(w: Wild | undefined): string | undefined {
  return w === undefined || w.isNull() || w.text() === "" ? undefined : w.text();
}

/** "**a**", "**a**, and **b**", "**a**, **b**, and **c**" (Zulip's wording, Oxford comma included). */
export function targetPeople(p: Wild): string {
  const people = (p.get("review_request").opt("target_people")?.items() ?? []).map(
    (t) => `**${t.get("title").str()}**`,
  );
  if (people.length <= 1) return people[0] ?? "";
  return `${people.slice(0, -1).join(", ")}, and ${people[people.length - 1] ?? ""}`;
}

/** The topic: the repository's title. */
function topic(p: Wild): string {
  return truncateTopic(p.get("review_request").get("links").get("repository").get("title").str());
}

function requestLink(p: Wild, urlFromSelf = false): string {
  const rr = p.get("review_request");
  const url = urlFromSelf ? rr.get("links").get("self").get("href").str() : rr.get("absolute_url").str();
  return `[#${rr.get("id").text()}: ${rr.get("summary").str()}](${url})`;
}

/** The quoted details block of a review request; `extra` lines go after the target people. */
function details(p: Wild, extra: string[]): string {
  const rr = p.get("review_request");
  const branch = nonEmpty(rr.opt("branch"));
  const lines = [...extra];
  if (branch !== undefined) lines.push(`**Branch**: ${branch}`);
  return (
    "``` quote\n" +
    `**Description**: ${rr.get("description").text()}\n` +
    `**Status**: ${rr.get("status").text()}\n` +
    `**Target people**: ${targetPeople(p)}\n` +
    `${lines.join("\n")}\n` +
    "```"
  );
}

export function reviewRequestPublished(p: Wild): WebhookMessage {
  const user = p.get("review_request").get("links").get("submitter").get("title").str();
  return { topic: topic(p), body: `**${user}** opened ${requestLink(p)}:\n\n${details(p, [])}` };
}

export function reviewRequestReopened(p: Wild): WebhookMessage {
  const user = p.get("reopened_by").get("username").str();
  return { topic: topic(p), body: `**${user}** reopened ${requestLink(p)}:\n\n${details(p, [])}` };
}

export function reviewRequestClosed(p: Wild): WebhookMessage {
  const user = p.get("closed_by").get("username").str();
  const extra = [`**Close type**: ${p.get("close_type").text()}`];
  return { topic: topic(p), body: `**${user}** closed ${requestLink(p)}:\n\n${details(p, extra)}` };
}

export function reviewPublished(p: Wild): WebhookMessage {
  const review = p.get("review");
  const user = review.get("links").get("user").get("title").str();
  const body =
    `**${user}** [reviewed](${review.get("absolute_url").str()}) ${requestLink(p)}:\n\n` +
    `**Review**:\n\`\`\` quote\n${review.get("body_top").text()}\n\`\`\``;
  return { topic: topic(p), body };
}

export function replyPublished(p: Wild): WebhookMessage {
  const reply = p.get("reply");
  const links = reply.get("links");
  const body =
    `**${links.get("user").get("title").str()}** [replied](${links.get("self").get("href").str()}) ` +
    `to ${requestLink(p, true)}:\n\n**Reply**:\n\`\`\` quote\n${reply.get("body_top").text()}\n\`\`\``;
  return { topic: topic(p), body };
}
