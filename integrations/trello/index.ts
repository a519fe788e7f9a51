import { defineIntegration } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import {
  BOARD_ACTIONS,
  CARD_ACTIONS,
  DISPLAY_NAME,
  IGNORED_ACTIONS,
  boardMessage,
  cardMessage,
} from "./messages.js";

const card: Handler = (p, ctx) => cardMessage(p, ctx.event);
const board: Handler = (p, ctx) => boardMessage(p, ctx.event);
const EVENTS = [...CARD_ACTIONS, ...BOARD_ACTIONS];

/**
 * Trello: POST /api/v1/external/trello from a webhook registered on a board through Trello's API.
 * Trello checks the callback URL with a HEAD request before creating the webhook. Zulip's Trello
 * integration passes no event type, so `only_events` / `exclude_events` do not filter it.
 */
export default defineIntegration({
  name: "trello",
  displayName: DISPLAY_NAME,
  categories: ["project-management"],
  description: "Cards, checklists, labels, members and lists changed on a Trello board.",
  // X-Trello-Webhook: base64 HMAC-SHA1 of the body followed by the callback URL, keyed with the
  // application's secret.
  signature: {
    kind: "hmac",
    header: "X-Trello-Webhook",
    algorithm: "sha1",
    encoding: "base64",
    signedContent: (req) => Buffer.concat([req.rawBody, Buffer.from(req.url, "utf8")]),
  },
  classify: ({ payload }) => payload.get("action").get("type").text(),
  events: {
    ...Object.fromEntries(CARD_ACTIONS.map((a) => [a, card])),
    ...Object.fromEntries(BOARD_ACTIONS.map((a) => [a, board])),
  },
  ignoredEvents: IGNORED_ACTIONS,
  unfilteredEvents: EVENTS,
  // Trello's HEAD check of the callback URL: Zulip answers it with a plain success.
  handshake: (req) =>
    req.method === "HEAD" ? { status: 200, body: { result: "success", msg: "" } } : undefined,
});
