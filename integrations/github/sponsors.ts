import { defineIntegration } from "../kit/index.js";
import { githubDefinition } from "./definition.js";

/**
 * GitHub Sponsors: POST /api/v1/external/githubsponsors. The same view as GitHub (as in Zulip,
 * where it lives in the github folder), listed separately for sponsorship events: new, changed and
 * cancelled sponsorships, posted to the topic "sponsors" (see sponsors.md).
 */
export default defineIntegration({
  ...githubDefinition,
  name: "githubsponsors",
  displayName: "GitHub Sponsors",
  categories: ["financial"],
  description: "New, changed and cancelled sponsorships of your GitHub Sponsors profile.",
});
