import { InvalidPayloadError, WebhookMisconfiguredError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** Zulip's notice to the bot's owner about a misconfigured media type. */
export const MISCONFIGURED_PAYLOAD_NOTICE = `
Hi there! Your bot {bot_name} just received a Zabbix payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Zabbix webhook settings. Please make sure that you set the
script correctly and provide all the required parameters
when configuring the Zabbix webhook. Contact {support_email} if you
need further help!
`;

/**
 * Zabbix: POST /api/v1/external/zabbix from a Zabbix media type of type Webhook whose script posts
 * hostname, severity, status, item, trigger and link. A payload missing any of them means the media
 * type is misconfigured: as Zulip does, the bot's owner is told (once a minute at most) and the
 * answer is "Invalid payload".
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
        if (err instanceof InvalidPayloadError) {
          throw new WebhookMisconfiguredError(MISCONFIGURED_PAYLOAD_NOTICE, "Invalid payload");
        }
        throw err;
      }
    },
  },
  unfilteredEvents: ["alert"],
});
