import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import { DeliveryService, deliveryToWire } from "../../domain/deliveries/delivery-service.js";
import { DIRECTIONS, OUTCOMES } from "../../domain/deliveries/types.js";
import { int, oneOf, optional, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

const MAX_NUM = 200;

function idParam(raw: string | undefined, notFound: string): number {
  const id = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(id)) throw new JsonableError(notFound);
  return id;
}

/** A bot's delivery log and replays (docs/integration-operations.md). */
export function deliveriesRouter(services: Services): Router<AppState> {
  const deliveries = new DeliveryService({
    log: services.deliveries,
    users: services.users,
    webhooks: services.webhooks,
    clock: services.clock,
    outgoing: services.config.outgoingWebhooks,
    realmUrl: () => services.config.externalUrl,
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
    const entry = await deliveries.replay(ctx.state.user, botId, deliveryId);
    ctx.body = success({ delivery: deliveryToWire(entry) });
  });

  return router;
}
