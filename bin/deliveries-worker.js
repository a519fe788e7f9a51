// The delivery log's writer thread (src/domain/deliveries/writer-thread.ts). A worker thread does
// not inherit the tsx loader the server was started with: it registers its own, as bin/chat-server.js does.
import { register } from "tsx/esm/api";

register();
await import("../src/domain/deliveries/writer-thread.ts");
