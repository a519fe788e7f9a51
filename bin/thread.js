// A worker thread's start (bin/deliveries-worker.js, bin/template-worker.js). A server started by
// bin/chat-server.js runs compiled code and says where through the worker environment data: the
// thread then runs the same build. Otherwise (tests and scripts run the sources through a loader,
// which a worker thread does not inherit) it registers tsx's loader and runs the source.
import { getEnvironmentData } from "node:worker_threads";
import { mapStacksOf } from "./mapped-stacks.js";

/** Runs `compiledName` of the build the server runs, or else the TypeScript `source` (a file URL). */
export async function runThread(compiledName, source) {
  const dir = getEnvironmentData("chat-server:compiled-dir");
  if (typeof dir === "string") {
    mapStacksOf(dir);
    await import(new URL(compiledName, dir).href);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    await import(source);
  }
}
