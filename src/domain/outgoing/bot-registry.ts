import type { Bot } from "../../../bots/kit/index.js";

/**
 * The chat server's port to the bundled bots (bots/index.ts), wired in src/services.ts: embedded
 * bots are looked up here by their service name.
 */
export interface BotRegistry {
  find(name: string): Bot | undefined;
  /** Whether the server may run this bot as an embedded bot (`embeddable: true`). */
  isEmbeddable(name: string): boolean;
}
