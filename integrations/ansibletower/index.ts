import { defineIntegration } from "../kit/index.js";
import { jobMessage } from "./messages.js";

/**
 * Ansible Tower / AWX notification webhooks: a job template run, project or inventory update, ad
 * hoc command or system job finished. Zulip passes no event type, so filters never drop them.
 */
export default defineIntegration({
  name: "ansibletower",
  displayName: "AnsibleTower",
  categories: ["deployment"],
  description:
    "Posts finished Ansible Tower / AWX jobs (playbook runs with their hosts, updates, ad hoc commands).",
  events: { notification: (p) => jobMessage(p) },
  unfilteredEvents: ["notification"],
});
