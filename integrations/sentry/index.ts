import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody, truncateTopic, unixToIso } from "../kit/message-text.js";

const DISPLAY_NAME = "Sentry";

/** Sentry's `platform` → the syntax highlighting of the traceback. */
const SYNTAX_HIGHLIGHT_AS: Record<string, string> = {
  go: "go",
  java: "java",
  javascript: "javascript",
  node: "javascript",
  python: "python3",
  ruby: "ruby",
};

/** An event as the integration (internal-integration alert) sends it, or rebuilt from a plugin payload. */
interface SentryEvent {
  event: Wild;
  webUrl: string;
  datetime: string;
}

/** The sample event Sentry sends from its settings page ("Test plugin"), which uses an old SDK version. */
function isSampleEvent(event: Wild): boolean {
  return event.opt("title")?.str() === "This is an example Python exception";
}

/**
 * The webhook plugin ("legacy webhooks") sends the event at the top level with the issue URL; it
 * is rewritten into the shape of an alert payload. Deprecated payloads have no `event_id`.
 */
function pluginEvent(p: Wild): SentryEvent | undefined {
  const event = p.opt("event");
  const eventId = event?.opt("event_id")?.text() ?? "";
  if (event === undefined || eventId === "") return undefined;
  const webUrl = new URL(`events/${eventId}/`, p.get("url").str()).href;
  const timestamp = (event.opt("timestamp") ?? event.get("received")).num();
  return { event, webUrl, datetime: unixToIso(timestamp) };
}

type Shape =
  | { kind: "event"; event: SentryEvent }
  | { kind: "issue"; action: string; issue: Wild; actor: Wild }
  | { kind: "deprecated" }
  | { kind: "unsupported"; eventType: string };

function pyList(keys: string[]): string {
  return `[${keys.map((k) => `'${k}'`).join(", ")}]`;
}

/** Which of Sentry's payload formats this is. */
function shapeOf(p: Wild): Shape {
  const data = p.opt("data");
  if (data === undefined) {
    const event = pluginEvent(p);
    if (event === undefined) return { kind: "deprecated" };
    return classifyEvent(event);
  }
  if (data.has("event")) {
    const event = data.get("event");
    return classifyEvent({
      event,
      webUrl: event.get("web_url").str(),
      datetime: event.get("datetime").str(),
    });
  }
  if (data.has("issue")) {
    const action = p.get("action").str();
    if (!["created", "resolved", "assigned", "ignored"].includes(action)) {
      return { kind: "unsupported", eventType: "unknown-issue-action type" };
    }
    return { kind: "issue", action, issue: data.get("issue"), actor: p.get("actor") };
  }
  return { kind: "unsupported", eventType: pyList(data.isObject() ? data.keys() : []) };
}

function classifyEvent(e: SentryEvent): Shape {
  const platform = e.event.get("platform").str();
  // The deprecated Raven SDKs for Python are not supported (their sample event is accepted).
  if (
    platform === "python" &&
    Number.parseInt(e.event.get("version").text(), 10) < 7 &&
    !isSampleEvent(e.event)
  ) {
    return { kind: "unsupported", eventType: "Raven SDK" };
  }
  if (!e.event.has("exception") && !e.event.has("logentry")) {
    return { kind: "unsupported", eventType: "unknown-event type" };
  }
  return { kind: "event", event: e };
}

function tracebackLines(lines: Wild | undefined): string {
  let out = "";
  for (const line of lines?.isList() === true ? lines.items() : []) {
    const text = line.isNull() ? "" : line.str();
    out += text === "" ? "\n" : `     ${text}\n`;
  }
  return out;
}

/** An exception (with the traceback around the frame in the reported file) or a message event. */
function eventMessage(e: SentryEvent): WebhookMessage {
  const { event } = e;
  const title = event.get("title").str();
  const platform = event.get("platform").str();
  const head =
    `**level:** ${event.get("level").str()}\n` + `**timestamp:** <time:${isoToSeconds(e.datetime)}>\n`;
  if (event.has("exception")) {
    const filename = event.get("metadata").opt("filename")?.str();
    let stacktrace: Wild | undefined;
    for (const value of [...event.get("exception").get("values").items()].reverse()) {
      if (value.has("stacktrace")) {
        stacktrace = value.get("stacktrace");
        break;
      }
    }
    let body = `**New exception:** [${title}](${e.webUrl})\n\`\`\`quote\n${head}**filename:** ${filename ?? "None"}\n\`\`\`\n`;
    if (stacktrace !== undefined && filename !== undefined && filename !== "") {
      const frame = [...stacktrace.get("frames").items()]
        .reverse()
        .find((f) => f.opt("filename")?.str() === filename);
      const contextLine = frame?.opt("context_line")?.str();
      if (frame !== undefined && contextLine !== undefined) {
        body +=
          "\nTraceback:\n```" +
          (SYNTAX_HIGHLIGHT_AS[platform] ?? "") +
          "\n" +
          tracebackLines(frame.opt("pre_context")) +
          `---> ${contextLine}\n` +
          tracebackLines(frame.opt("post_context")) +
          "```\n";
      }
    }
    return { topic: truncateTopic(title), body: normalizeBody(body) };
  }
  return {
    topic: truncateTopic(title),
    body: normalizeBody(`**New message event:** [${title}](${e.webUrl})\n\`\`\`quote\n${head}\`\`\`\n`),
  };
}

/** Issue created, resolved, assigned or ignored (the internal integration's issue alerts). */
function issueMessage(action: string, issue: Wild, actor: Wild): WebhookMessage {
  const title = issue.get("title").str();
  const assignedTo = issue.opt("assignedTo");
  const assignee =
    assignedTo === undefined
      ? "No one"
      : assignedTo.get("type").str() === "team"
        ? `team ${assignedTo.get("name").str()}`
        : assignedTo.get("name").str();
  let body: string;
  switch (action) {
    case "created":
      body =
        `**New issue created:** ${title}\n\`\`\`quote\n**level:** ${issue.get("level").str()}\n` +
        `**timestamp:** <time:${isoToSeconds(issue.get("lastSeen").str())}>\n**assignee:** ${assignee}\n\`\`\``;
      break;
    case "resolved":
      body = `Issue **${title}** was marked as resolved by **${actor.get("name").str()}**.`;
      break;
    case "assigned":
      body = `Issue **${title}** has now been assigned to **${assignee}** by **${actor.get("name").str()}**.`;
      break;
    default:
      body = `Issue **${title}** was ignored by **${actor.get("name").str()}**.`;
  }
  // resolve_topics: a resolved issue's topic is resolved; edit_status_messages: resolving and
  // ignoring change only the issue's status.
  const lifecycle =
    action === "resolved"
      ? { resolves: true, statusOnly: true }
      : action === "ignored"
        ? { statusOnly: true }
        : {};
  return { topic: truncateTopic(title), body, ...lifecycle };
}

/** The oldest format: no `data`, no event id; the project is the topic. */
function deprecatedMessage(p: Wild): WebhookMessage {
  const opt = (k: string): string => p.opt(k)?.text() ?? "None";
  return {
    topic: truncateTopic(opt("project_name")),
    body: `New [issue](${opt("url")}) (level: ${p.get("level").str().toUpperCase()}):\n\n\`\`\` quote\n${opt("message")}\n\`\`\``,
  };
}

/**
 * Sentry: events (exceptions with a traceback, messages) and issue alerts from the internal
 * integration, the webhook plugin's payloads, and the deprecated format. No event filter applies.
 */
export default defineIntegration({
  name: "sentry",
  displayName: DISPLAY_NAME,
  categories: ["monitoring"],
  resolvesTopics: true,
  editsStatusMessages: true,
  description: "Posts Sentry errors and messages with their traceback, and issue changes.",
  // Integration-platform webhooks: Sentry-Hook-Signature, the hex HMAC-SHA256 of the body keyed
  // with the integration's client secret.
  signature: { kind: "hmac", header: "Sentry-Hook-Signature", algorithm: "sha256" },
  classify: ({ payload }) => {
    const shape = shapeOf(payload);
    return shape.kind === "unsupported" ? shape.eventType : shape.kind;
  },
  // Zulip's integration passes no event type: only_events / exclude_events never drop one.
  unfilteredEvents: ["event", "issue", "deprecated"],
  events: {
    event: (p) => {
      const shape = shapeOf(p);
      if (shape.kind !== "event") throw new UnsupportedWebhookEventTypeError(shape.kind, DISPLAY_NAME);
      return eventMessage(shape.event);
    },
    issue: (p) => {
      const shape = shapeOf(p);
      if (shape.kind !== "issue") throw new UnsupportedWebhookEventTypeError(shape.kind, DISPLAY_NAME);
      return issueMessage(shape.action, shape.issue, shape.actor);
    },
    deprecated: deprecatedMessage,
  },
});
