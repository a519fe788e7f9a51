import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import {
  DeliveryService,
  MAX_DRY_RUN_DELIVERIES,
  deliveryToWire,
} from "../../domain/deliveries/delivery-service.js";
import type { DryRun } from "../../domain/deliveries/delivery-service.js";
import { DIRECTIONS, OUTCOMES } from "../../domain/deliveries/types.js";
import { deadDeliveryToWire, endpointToWire } from "../presenters/dead-deliveries.js";
import { bool, int, oneOf, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

const MAX_NUM = 200;

function idParam(raw: string | undefined, notFound: string): number {
  const id = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(id)) throw new JsonableError(notFound);
  return id;
}

/** A draft template's keys, for a dry run: they replace the bot's own for that run only. */
function draftOf(args: {
  template_topic?: string | undefined;
  template_body?: string | undefined;
}): Record<string, string> {
  const draft: Record<string, string> = {};
  if (args.template_topic !== undefined) draft["template_topic"] = args.template_topic;
  if (args.template_body !== undefined) draft["template_body"] = args.template_body;
  return draft;
}

function dryRunToWire(run: DryRun): Record<string, unknown> {
  return {
    delivery_id: run.deliveryId,
    event: run.event,
    topic: run.topic,
    content: run.content,
    messages: run.messages,
    error: run.error,
    posted: run.posted,
    changed: run.changed,
  };
}

/** A bot's delivery log and replays (docs/integration-operations.md). */
export function deliveriesRouter(
  services: Pick<
    Services,
    | "clock"
    | "config"
    | "deliveries"
    | "egress"
    | "messages"
    | "outgoing"
    | "templateModule"
    | "users"
    | "webhooks"
  >,
): Router<AppState> {
  const deliveries = new DeliveryService({
    log: services.deliveries,
    users: services.users,
    webhooks: services.webhooks,
    clock: services.clock,
    outgoing: services.config.outgoingWebhooks,
    egress: services.egress,
    realmUrl: () => services.config.externalUrl,
    templateModule: services.templateModule,
    postedMessage: async (reader, id) => {
      try {
        const { rawContent, message } = await services.messages.getWithRawContent(reader, id);
        const topic = message["subject"];
        return { topic: typeof topic === "string" ? topic : "", content: rawContent };
      } catch {
        return undefined; // deleted since, or no longer readable
      }
    },
  });
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.get("/bots/:bot_id/deliveries", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const args = parseArgs(ctx.state.params, {
      direction: optional(oneOf(DIRECTIONS)),
      outcome: optional(oneOf(OUTCOMES)),
      anchor: optional((raw, name) => (raw === "newest" ? undefined : int(raw, name))),
      num: optional(int, 50),
    });
    if (args.num < 1 || args.num > MAX_NUM) throw new JsonableError(`num must be between 1 and ${MAX_NUM}`);
    const { deliveries: list, foundOldest } = await deliveries.list(ctx.state.user, botId, {
      direction: args.direction,
      outcome: args.outcome,
      anchor: args.anchor,
      num: args.num,
    });
    ctx.body = success({ deliveries: list.map(deliveryToWire), found_oldest: foundOldest });
  });

  router.post("/bots/:bot_id/deliveries/:delivery_id/replay", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const deliveryId = idParam(ctx.params["delivery_id"], "No such delivery");
    const args = parseArgs(ctx.state.params, {
      dry_run: optional(bool, false),
      template_topic: optional(str),
      template_body: optional(str),
    });
    if (args.dry_run) {
      const run = await deliveries.dryRun(ctx.state.user, botId, deliveryId, draftOf(args));
      ctx.body = success(dryRunToWire(run));
      return;
    }
    const entry = await deliveries.replay(ctx.state.user, botId, deliveryId);
    ctx.body = success({ delivery: deliveryToWire(entry) });
  });

  /** A dry run of the bot's last `num` incoming deliveries: which ones today's code would post differently. */
  router.post("/bots/:bot_id/deliveries/dry_run", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const args = parseArgs(ctx.state.params, {
      num: optional(int, 50),
      template_topic: optional(str),
      template_body: optional(str),
    });
    if (args.num < 1 || args.num > MAX_DRY_RUN_DELIVERIES) {
      throw new JsonableError(`num must be between 1 and ${MAX_DRY_RUN_DELIVERIES}`);
    }
    const runs = await deliveries.dryRunMany(ctx.state.user, botId, args.num, draftOf(args));
    ctx.body = success({ dry_runs: runs.map(dryRunToWire), changed: runs.filter((r) => r.changed).length });
  });

  /**
   * A template bot's saved templates as an integration module (`chat-server export-template`):
   * `{"files": {path: text}}`, fixtures from its last `num` deliveries.
   */
  router.post("/bots/:bot_id/export_integration", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const args = parseArgs(ctx.state.params, { name: str, num: optional(int, 20) });
    if (args.num < 0 || args.num > MAX_DRY_RUN_DELIVERIES) {
      throw new JsonableError(`num must be between 0 and ${MAX_DRY_RUN_DELIVERIES}`);
    }
    const files = await deliveries.exportTemplate(ctx.state.user, botId, args.name, args.num);
    ctx.body = success({ files });
  });

  /** Dead outgoing deliveries and the state of the bot's endpoints. */
  router.get("/bots/:bot_id/dead_deliveries", async (ctx) => {
    const bot = await deliveries.botFor(ctx.state.user, idParam(ctx.params["bot_id"], "No such bot"));
    ctx.body = success(await deadState(bot.id));
  });

  /** Replay all: every dead delivery of the bot is pending again and sent now (or when its circuit lets it). */
  router.post("/bots/:bot_id/dead_deliveries/replay", async (ctx) => {
    const bot = await deliveries.botFor(ctx.state.user, idParam(ctx.params["bot_id"], "No such bot"));
    if (!bot.isActive) throw new JsonableError("This bot is deactivated.");
    const replayed = await services.outgoing.replayDead(bot.id);
    ctx.body = success({ replayed });
  });

  /** Re-enables the bot's endpoints (a disabled one, or one whose circuit is open). */
  router.post("/bots/:bot_id/endpoints/enable", async (ctx) => {
    const bot = await deliveries.botFor(ctx.state.user, idParam(ctx.params["bot_id"], "No such bot"));
    await services.outgoing.enableEndpoints(bot.id);
    ctx.body = success({ endpoints: (await deadState(bot.id)).endpoints });
  });

  async function deadState(botId: number): Promise<{ dead_deliveries: unknown[]; endpoints: unknown[] }> {
    const { dead, endpoints } = await services.outgoing.states.ofBot(botId);
    const threshold = services.config.outgoingWebhooks.circuitBreakerThreshold;
    const botServices = await services.users.servicesOf(botId);
    return {
      dead_deliveries: dead.map(deadDeliveryToWire),
      endpoints: botServices.map((service) =>
        endpointToWire(
          service,
          endpoints.find((e) => e.serviceId === service.id),
          threshold,
        ),
      ),
    };
  }

  return router;
}
