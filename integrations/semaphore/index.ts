import { defineIntegration } from "../kit/index.js";
import { classic, isClassic, semaphore2, semaphoreEvent } from "./messages.js";

/** Events Zulip's Semaphore integration names (only_events / exclude_events match them). */
const KNOWN_EVENTS = ["build", "deploy", "branch", "pull_request", "tag"];

/**
 * Semaphore: POST /api/v1/external/semaphore, from Semaphore Classic's or Semaphore 2.0's
 * notifications. The event is Classic's `event` or 2.0's `revision.reference_type`; any other
 * value is posted as such ("unknown" in filters).
 */
export default defineIntegration({
  name: "semaphore",
  displayName: "Semaphore",
  categories: ["continuous-integration", "deployment"],
  description: "Builds and deploys (Semaphore Classic) and pipeline results (Semaphore 2.0).",
  classify: ({ payload }) => {
    const event = semaphoreEvent(payload);
    return KNOWN_EVENTS.includes(event) ? event : "unknown";
  },
  events: {
    build: (p) => classic(p),
    deploy: (p) => classic(p),
    branch: (p) => semaphore2(p),
    pull_request: (p) => semaphore2(p),
    tag: (p) => semaphore2(p),
    unknown: (p) => (isClassic(p) ? classic(p) : semaphore2(p)),
  },
});
