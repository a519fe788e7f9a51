import type { AnyIntegration } from "../../../integrations/kit/define-integration.js";
import { dispatchWebhook, type DispatchOutcome, type WebhookRequest } from "./stages.js";

/** Thrown by the lazy user directory on first use; the pipeline loads it and renders again. */
class DirectoryNeeded extends Error {}

/** Thrown by the lazy bot configuration on first use (the template integration reads it). */
class BotConfigNeeded extends Error {}

/** What the pure stages may ask for, loaded only when a handler does. */
export interface LazyLoaders {
  /** Active users' full names by lower-case email. */
  directory(): Promise<Map<string, string>>;
  botConfig(): Promise<Readonly<Record<string, string>>>;
}

/**
 * Stages "read body" to "render" (pure, stages.ts). The realm's user directory and the bot's
 * configuration are loaded lazily: the first time a handler asks for one, it is loaded and the
 * pure stages run again (most requests need neither).
 */
export async function dispatchLazily(
  integration: AnyIntegration,
  req: WebhookRequest,
  load: LazyLoaders,
): Promise<DispatchOutcome> {
  let names: Map<string, string> | undefined;
  let config: Readonly<Record<string, string>> | undefined;
  for (;;) {
    try {
      return dispatchWebhook(integration, {
        ...req,
        userFullName: (email) => {
          if (names === undefined) throw new DirectoryNeeded();
          return names.get(email.toLowerCase());
        },
        botConfig: () => {
          if (config === undefined) throw new BotConfigNeeded();
          return config;
        },
      });
    } catch (err) {
      if (err instanceof DirectoryNeeded && names === undefined) {
        names = await load.directory();
      } else if (err instanceof BotConfigNeeded && config === undefined) {
        config = await load.botConfig();
      } else {
        throw err;
      }
    }
  }
}
