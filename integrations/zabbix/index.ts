import { BadRequestError, InvalidPayloadError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/**
 * Zabbix: POST /api/v1/external/zabbix from a Zabbix media type of type Webhook whose script posts
 * hostname, severity, status, item, trigger and link. A payload missing any of them means the media
 * type is misconfigured: Zulip answers "Invalid payload".
 */
export default defineIntegration({
  name: "zabbix",
  displayName: "Zabbix",
  categories: ["monitoring"],
  description: "Zabbix trigger alerts (problems and recoveries).",
  classify: () => "alert",
  events: {
    alert: (p) => {
      try {
        const f = (name: string): string => p.get(name).str();
        const hostname = f("hostname");
        return {
          topic: truncateTopic(hostname),
          body: `${f("status")} (${f("severity")}) alert on [${hostname}](${f("link")}):\n* ${f("trigger")}\n* ${f("item")}`,
        };
      } catch (err) {
        if (err instanceof InvalidPayloadError) throw new BadRequestError("Invalid payload");
        throw err;
      }
    },
  },
  unfilteredEvents: ["alert"],
});
