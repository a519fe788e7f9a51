import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** An ISO 8601 duration (`PT7H42M`) as Zulip words it ("7 hours and 42 minutes"); null when invalid. */
export function formatDuration(iso: string): string | null {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (m === null) return null;
  const units = ["days", "hours", "minutes", "seconds"];
  const parts = units.flatMap((unit, i) => {
    const raw = m[i + 1];
    if (raw === undefined) return [];
    const n = parseInt(raw, 10);
    return [`${n} ${n === 1 ? unit.slice(0, -1) : unit}`];
  });
  if (parts.length === 0) return null;
  return parts.length > 1
    ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1] ?? ""}`
    : (parts[0] ?? null);
}

function actionOf(p: Wild): string {
  return p.get("action").text().split(":")[1] ?? "";
}

const embedded = (w: Wild): Wild | undefined => w.opt("_embedded");

/**
 * OpenProject: POST /api/v1/external/openproject from a webhook (Administration → API and
 * webhooks → Webhooks). Events are OpenProject's `action` resources (`work_package` of
 * `work_package:created`, …). Zulip passes no event type, so `only_events` does not filter.
 */
export default defineIntegration({
  name: "openproject",
  displayName: "OpenProject",
  categories: ["project-management"],
  description: "Projects, work packages, time entries and attachments in OpenProject.",
  // Webhooks with a secret send X-OP-Signature: "sha1=" + hex HMAC-SHA1 of the body.
  signature: { kind: "hmac", header: "X-OP-Signature", algorithm: "sha1", prefix: "sha1=" },
  classify: ({ payload }) => {
    const action = payload.get("action").text();
    const item = action.split(":")[0] ?? action;
    return ["project", "work_package", "attachment", "time_entry"].includes(item) ? item : action;
  },
  events: {
    project: (p) => {
      const project = p.get("project");
      const name = project.get("name").text();
      const parent = embedded(project)?.opt("parent")?.opt("name")?.text() ?? "";
      const action = actionOf(p);
      const sub = parent !== "" && action === "created" ? ` as a sub-project of **${parent}**` : "";
      return { topic: truncateTopic(name), body: `Project **${name}** was ${action}${sub}.` };
    },
    work_package: (p) => {
      const wp = p.get("work_package");
      const e = wp.get("_embedded");
      return {
        topic: truncateTopic(e.get("project").get("name").text()),
        body:
          `**${wp.get("subject").text()}** (work package **${e.get("type").get("name").text()}**) ` +
          `was ${actionOf(p)} by **${e.get("author").get("name").text()}**.`,
      };
    },
    attachment: (p) => {
      const a = p.get("attachment");
      const e = a.get("_embedded");
      const container = e.get("container");
      return {
        topic: truncateTopic(container.get("_links").get("project").get("title").text()),
        body:
          `**${e.get("author").get("name").text()}** uploaded **${a.get("fileName").text()}** ` +
          `in **${container.get("subject").text()}**.`,
      };
    },
    time_entry: (p) => {
      const t = p.get("time_entry");
      const e = t.get("_embedded");
      const project = e.get("project").get("name").text();
      const workPackage = e.opt("workPackage")?.opt("subject")?.text() ?? "";
      const hours = t.opt("hours")?.value;
      const duration = typeof hours === "string" ? formatDuration(hours) : null;
      return {
        topic: truncateTopic(project),
        body:
          `**${e.get("user").get("name").text()}** logged ${duration === null ? "a time entry" : `**${duration}**`}` +
          ` on **${workPackage !== "" ? workPackage : project}**.`,
      };
    },
  },
  unfilteredEvents: ["project", "work_package", "attachment", "time_entry"],
});
