import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** A label, else an annotation, else the fallback. */
function field(alert: Wild, name: string, fallback: string): string {
  return alert.optAt("labels", name)?.text() ?? alert.optAt("annotations", name)?.text() ?? fallback;
}

/**
 * Prometheus Alertmanager: alerts grouped by the `name` label (URL parameter `name`, default
 * `instance`) into topics, one message per topic and status, each alert described by its `desc`
 * label or annotation (URL parameter `desc`, default `alertname`).
 */
export default defineIntegration({
  name: "alertmanager",
  displayName: "AlertManager",
  categories: ["monitoring"],
  resolvesTopics: true,
  description: "Posts Prometheus Alertmanager alerts, grouped by a label into topics.",
  // Zulip's integration passes no event type: only_events / exclude_events never drop an alert.
  unfilteredEvents: ["default"],
  events: {
    default: (p, ctx) => {
      const nameField = ctx.params["name"] ?? "instance";
      const descField = ctx.params["desc"] ?? "alertname";
      const topics = new Map<string, Map<string, string[]>>();
      for (const alert of p.get("alerts").items()) {
        const name = field(alert, nameField, "(unknown)");
        const desc = field(alert, descField, `<missing field: ${descField}>`);
        const url = alert.get("generatorURL").str().replaceAll("tab=1", "tab=0");
        let statuses = topics.get(name);
        if (statuses === undefined) {
          statuses = new Map([
            ["firing", []],
            ["resolved", []],
          ]);
          topics.set(name, statuses);
        }
        const status = alert.get("status").str();
        const list = statuses.get(status) ?? [];
        list.push(`${desc} ([source](${url}))`);
        statuses.set(status, list);
      }
      const messages: WebhookMessage[] = [];
      for (const [topic, statuses] of topics) {
        for (const [status, lines] of statuses) {
          if (lines.length === 0) continue;
          const [icon, title] = status === "firing" ? [":alert:", "FIRING"] : [":squared_ok:", "Resolved"];
          const body =
            lines.length === 1
              ? `${icon} **${title}** ${lines[0] ?? ""}`
              : `${icon} **${title}**\n${lines.map((l) => `* ${l}`).join("\n")}`;
          // resolve_topics: firing alerts open the group's topic again; resolved ones, with none
          // firing, resolve it.
          const firing = (statuses.get("firing") ?? []).length > 0;
          const resolves = status === "firing" ? false : firing ? undefined : true;
          messages.push({
            topic: truncateTopic(topic),
            body,
            ...(resolves === undefined ? {} : { resolves }),
          });
        }
      }
      return messages;
    },
  },
});
