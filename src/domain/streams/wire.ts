/** Moved to src/wire/streams.ts (kept only until every importer has switched; then delete). */
export { streamWire, subscriptionWire } from "../../wire/streams.js";
