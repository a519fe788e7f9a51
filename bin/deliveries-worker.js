// The delivery log's writer thread (src/domain/deliveries/writer-thread.ts), compiled or from source.
import { runThread } from "./thread.js";

await runThread(
  "deliveries-writer.js",
  new URL("../src/domain/deliveries/writer-thread.ts", import.meta.url).href,
);
