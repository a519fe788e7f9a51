import { defineIntegration } from "../kit/index.js";

/** The example integration: a greeting and a link to the featured article. */
export default defineIntegration({
  name: "helloworld",
  displayName: "Hello World",
  categories: ["misc"],
  description: "Posts a greeting and a link to an article; the model for new integrations.",
  events: {
    default: (p) => ({
      topic: "Hello World",
      body:
        "Hello! I am happy to be here! :smile:\n" +
        `The Wikipedia featured article for today is **[${p.get("featured_title").str()}](${p.get("featured_url").str()})**`,
    }),
  },
});
