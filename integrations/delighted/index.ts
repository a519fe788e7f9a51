import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";

function surveyResponse(p: Wild): HandlerResult {
  const data = p.get("event_data");
  const email = data.get("person").get("email").str();
  const score = data.get("score").int();
  const comment = data.opt("comment")?.text();
  // Scores from 7 up come from promoters (Delighted's NPS scale).
  const intro =
    score >= 7
      ? `Kudos! You have a new promoter. Score of ${score}/10 from ${email}`
      : `Great! You have new feedback. Score of ${score}/10 from ${email}`;
  const body =
    comment === undefined || comment === "" ? `${intro}.` : `${intro}:\n\n\`\`\` quote\n${comment}\n\`\`\``;
  return { topic: "Survey response", body: normalizeBody(body) };
}

/** Delighted: survey responses, promoters told apart from other feedback. */
export default defineIntegration({
  name: "delighted",
  displayName: "Delighted",
  categories: ["communication"],
  description: "Posts Delighted survey responses with their score and comment.",
  // Delighted signs the body with the account's private API key: `sha256=<hex HMAC-SHA256>`.
  signature: {
    kind: "hmac",
    header: "X-Delighted-Webhook-Signature",
    algorithm: "sha256",
    prefix: "sha256=",
  },
  classify: ({ payload }): string => payload.opt("event_type")?.text() ?? "survey_response.created",
  events: {
    "survey_response.created": surveyResponse,
    "survey_response.updated": surveyResponse,
  },
  // Other Delighted events (unsubscribes, …) are known and post nothing.
  ignoredEvents: ["unsubscribe.*", "comment.*", "autopilot.*"],
  // Zulip's Delighted integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["survey_response.created", "survey_response.updated"],
});
