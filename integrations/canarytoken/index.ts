import { defineIntegration } from "../kit/index.js";
import { tokenMessage } from "./messages.js";

/**
 * canarytokens.org: a free Canarytoken was triggered. (Tokens from a paid Canary console use the
 * `thinkst` integration.) Zulip passes no event type, so filters never drop it.
 */
export default defineIntegration({
  name: "canarytoken",
  displayName: "Canarytokens",
  categories: ["monitoring"],
  description: "Posts when a canarytokens.org token is triggered.",
  events: { triggered: (p) => tokenMessage(p) },
  unfilteredEvents: ["triggered"],
});
