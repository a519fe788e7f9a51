import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { Handler, LifecycleEntry, WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

const DISPLAY_NAME = "PagerDuty";

/** Webhook v1 message types → the action Zulip shows (and filters on). */
const V1_ACTIONS: Record<string, string> = {
  "incident.trigger": "triggered",
  "incident.acknowledge": "acknowledged",
  "incident.unacknowledge": "unacknowledged",
  "incident.resolve": "resolved",
  "incident.assign": "assigned",
  "incident.escalate": "escalated",
  "incident.delegate": "delineated",
};

/** Webhook v2 `event`s. */
const V2_ACTIONS: Record<string, string> = {
  "incident.trigger": "triggered",
  "incident.acknowledge": "acknowledged",
  "incident.resolve": "resolved",
  "incident.assign": "assigned",
};

/** Webhook v3 `event.event_type`s. */
const V3_ACTIONS: Record<string, string> = {
  "incident.triggered": "triggered",
  "incident.acknowledged": "acknowledged",
  "incident.unacknowledged": "unacknowledged",
  "incident.resolved": "resolved",
  "incident.reassigned": "reassigned",
};

interface Incident {
  type: string;
  action: string;
  numTitle: string;
  url: string;
  serviceName: string;
  serviceUrl: string;
  assignee: string;
  agent: string | undefined;
  trigger: string;
}

const agentLink = (name: string, url: string): string => `[${name}](${url})`;
const quote = (text: string): string => "``` quote\n" + text + "\n```";

function v1Incident(message: Wild, type: string): Incident {
  const incident = message.get("data").get("incident");
  const user = (w: Wild | undefined): string | undefined =>
    w === undefined
      ? undefined
      : agentLink(w.get("email").str().split("@")[0] ?? "", w.get("html_url").str());
  const summary = incident.opt("trigger_summary_data");
  const trigger: string[] = [];
  for (const key of ["subject", "description"]) {
    const value = summary?.opt(key)?.str() ?? "";
    if (value !== "") trigger.push(value);
  }
  return {
    type,
    action: V1_ACTIONS[type] ?? type,
    numTitle: incident.get("incident_number").text(),
    url: incident.get("html_url").str(),
    serviceName: incident.get("service").get("name").str(),
    serviceUrl: incident.get("service").get("html_url").str(),
    assignee: user(incident.opt("assigned_to_user")) ?? "nobody",
    agent: user(incident.opt("resolved_by_user")),
    trigger: quote(trigger.join("\n")),
  };
}

function v2Incident(message: Wild, type: string): Incident {
  const incident = message.get("incident");
  const assignee = incident.opt("assignments")?.items()[0]?.get("assignee");
  const changedBy = incident.opt("last_status_change_by");
  const description = incident.opt("description")?.str();
  return {
    type,
    action: V2_ACTIONS[type] ?? type,
    numTitle: incident.get("incident_number").text(),
    url: incident.get("html_url").str(),
    serviceName: incident.get("service").get("name").str(),
    serviceUrl: incident.get("service").get("html_url").str(),
    assignee:
      assignee === undefined
        ? "nobody"
        : agentLink(assignee.get("summary").str(), assignee.get("html_url").str()),
    agent:
      changedBy === undefined
        ? undefined
        : agentLink(changedBy.get("summary").str(), changedBy.get("html_url").str()),
    trigger: description === undefined ? "" : quote(description),
  };
}

function v3Incident(event: Wild, type: string): Incident {
  const data = event.get("data");
  const assignee = data.opt("assignees")?.items()[0];
  const agent = event.opt("agent");
  return {
    type,
    action: V3_ACTIONS[type] ?? type,
    numTitle: `${data.get("title").str()} (#${data.get("number").text()})`,
    url: data.get("html_url").str(),
    serviceName: data.get("service").get("summary").str(),
    serviceUrl: data.get("service").get("html_url").str(),
    assignee:
      assignee === undefined
        ? "nobody"
        : agentLink(assignee.get("summary").str(), assignee.get("html_url").str()),
    agent:
      agent === undefined ? undefined : agentLink(agent.get("summary").str(), agent.get("html_url").str()),
    trigger: "", // v3 events carry no trigger message
  };
}

function render(i: Incident): WebhookMessage {
  const link = `Incident [${i.numTitle}](${i.url})`;
  let body: string;
  switch (i.type) {
    case "incident.trigger":
    case "incident.triggered":
    case "incident.unacknowledge":
    case "incident.unacknowledged":
      body =
        `${link} ${i.action} by [${i.serviceName}](${i.serviceUrl}) (assigned to ${i.assignee}).\n\n` +
        i.trigger;
      break;
    case "incident.resolve":
    case "incident.resolved":
      body =
        i.agent !== undefined
          ? `${link} resolved by ${i.agent}.\n\n${i.trigger}`
          : `${link} resolved.\n\n${i.trigger}`;
      break;
    case "incident.assign":
    case "incident.reassigned":
      body = `${link} ${i.action} to ${i.assignee}.\n\n${i.trigger}`;
      break;
    default:
      body = `${link} ${i.action} by ${i.assignee}.\n\n${i.trigger}`;
  }
  // resolve_topics and edit_status_messages, per incident (a payload may hold several).
  return {
    topic: truncateTopic(`Incident ${i.numTitle}`),
    body: normalizeBody(body),
    ...LIFECYCLE[i.action],
  };
}

/**
 * A ticket's life in one topic: a resolved incident's topic is resolved; acknowledging,
 * unacknowledging and resolving change only the incident's status.
 */
const LIFECYCLE: Readonly<Record<string, LifecycleEntry>> = {
  acknowledged: { statusOnly: true },
  unacknowledged: { statusOnly: true },
  resolved: { resolves: true, statusOnly: true },
};

/**
 * The incidents of a payload of any webhook version: v1 (`messages[].type`), v2
 * (`messages[].event`) or v3 (`event.event_type`). An unknown type rejects the request.
 */
function incidentsOf(p: Wild): Incident[] {
  const messages = p.opt("messages")?.items() ?? [];
  const out: Incident[] = [];
  if (messages.length > 0) {
    for (const m of messages) {
      const type = m.opt("type")?.str();
      if (type === undefined) break; // a v2 payload
      if (V1_ACTIONS[type] === undefined) throw new UnsupportedWebhookEventTypeError(type, DISPLAY_NAME);
      out.push(v1Incident(m, type));
    }
    for (const m of messages) {
      const event = m.opt("event")?.str();
      if (event === undefined) break; // a v1 payload
      if (V2_ACTIONS[event] === undefined) throw new UnsupportedWebhookEventTypeError(event, DISPLAY_NAME);
      out.push(v2Incident(m, event));
    }
    return out;
  }
  const event = p.opt("event");
  if (event !== undefined) {
    const type = event.opt("event_type")?.str() ?? "None";
    if (V3_ACTIONS[type] === undefined) throw new UnsupportedWebhookEventTypeError(type, DISPLAY_NAME);
    out.push(v3Incident(event, type));
  }
  return out;
}

const ACTIONS = [
  "triggered",
  "acknowledged",
  "unacknowledged",
  "resolved",
  "assigned",
  "reassigned",
  "escalated",
  "delineated",
] as const;
type Action = (typeof ACTIONS)[number];

const incidents: Handler = (p, ctx) =>
  incidentsOf(p)
    .filter((i) => ctx.wanted(i.action))
    .map(render);

/** PagerDuty: incidents triggered, acknowledged, reassigned and resolved, one topic per incident. */
export default defineIntegration<Record<string, unknown>, Action>({
  name: "pagerduty",
  // Webhooks v3: X-PagerDuty-Signature is "v1=" and the hex HMAC-SHA256 of the body.
  signature: { kind: "hmac", header: "X-PagerDuty-Signature", algorithm: "sha256", prefix: "v1=" },
  displayName: DISPLAY_NAME,
  categories: ["monitoring"],
  resolvesTopics: true,
  editsStatusMessages: true,
  description:
    "Posts PagerDuty incidents (webhooks v1, v2 and v3) as they are triggered, acknowledged and resolved.",
  // The event is the first incident's action. A payload may hold several incidents, each filtered
  // on its own action by the handler, so the pipeline filters none.
  classify: ({ payload }) => incidentsOf(payload)[0]?.action ?? "no_incident",
  events: Object.fromEntries(ACTIONS.map((a) => [a, incidents])) as Record<Action, Handler>,
  unfilteredEvents: ACTIONS,
  ignoredEvents: ["no_incident"],
});
