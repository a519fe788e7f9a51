// The template renderer's thread (integrations/template/render-worker.ts), compiled or from source.
import { runThread } from "./thread.js";

await runThread(
  "template-worker.js",
  new URL("../integrations/template/render-worker.ts", import.meta.url).href,
);
