/** Helpers of the end-to-end tests: free ports, a user's event queue read by blocking GET /events. */
import net from "node:net";
import type { ApiClient, Credentials } from "../helpers/client.js";

/** A port nobody listens on right now (for a server whose URL must be known in advance). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface E2eMessage {
  id: number;
  sender_email: string;
  content: string;
  type: string;
  subject: string;
  display_recipient: unknown;
}

interface E2eEvent {
  id: number;
  type: string;
  message?: E2eMessage;
}

/** A user's event queue, read by blocking GET /events. */
export class EventQueue {
  private lastEventId = -1;
  private constructor(
    private readonly api: ApiClient,
    private readonly user: Credentials,
    private readonly id: string,
  ) {}

  static async register(api: ApiClient, user: Credentials): Promise<EventQueue> {
    const res = await api.post("/api/v1/register", {
      as: user,
      params: { event_types: ["message"], apply_markdown: false },
      skipSchemaCheck: true,
    });
    if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
    return new EventQueue(api, user, res.body.queue_id as string);
  }

  /** Collects message events until `done(collected)` is true; returns them. */
  async collect(done: (messages: E2eMessage[]) => boolean, timeoutMs = 20_000): Promise<E2eMessage[]> {
    const deadline = Date.now() + timeoutMs;
    const messages: E2eMessage[] = [];
    while (!done(messages)) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out after ${messages.length} messages`);
      }
      const res = await this.api.get("/api/v1/events", {
        as: this.user,
        params: { queue_id: this.id, last_event_id: this.lastEventId },
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        skipSchemaCheck: true,
      });
      if (res.status !== 200) throw new Error(`GET /events failed: ${res.text}`);
      for (const event of res.body.events as E2eEvent[]) {
        this.lastEventId = event.id;
        if (event.type === "message" && event.message !== undefined) messages.push(event.message);
      }
    }
    return messages;
  }

  /** Waits for a message event matching `pred`. */
  async waitForMessage(pred: (m: E2eMessage) => boolean, timeoutMs = 20_000): Promise<E2eMessage> {
    const found = await this.collect((ms) => ms.some(pred), timeoutMs);
    return found.find(pred) as E2eMessage;
  }
}
