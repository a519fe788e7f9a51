import Router from "@koa/router";
import type { Services } from "../../services.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

type Check = "ok" | "unreachable" | "not configured";

/** Resolves to "unreachable" when `probe` fails or takes longer than `ms`. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return (await Promise.race([probe().catch(() => false), timeout])) ? "ok" : "unreachable";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For load balancers, no authentication: `GET /health` answers while the process runs;
 * `GET /ready` answers 200 only when the database (and Redis, with `--redis`) answer, else 503
 * with what is unreachable, so a balancer stops sending requests until they are back.
 */
export function healthRouter(services: Pick<Services, "shared" | "storeHealth">): Router<AppState> {
  const router = new Router<AppState>();
  router.get("/health", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = success({ status: "alive" });
  });
  router.get("/ready", async (ctx) => {
    const redis = services.shared.redis;
    const [database, redisCheck] = await Promise.all([
      within(2000, () => services.storeHealth.ping()),
      redis === undefined ? Promise.resolve<Check>("not configured") : within(2000, () => redis.ping()),
    ]);
    ctx.set("Cache-Control", "no-store");
    if (database === "ok" && redisCheck !== "unreachable") {
      ctx.body = success({ status: "ready", database, redis: redisCheck });
      return;
    }
    const down = [database === "ok" ? null : "the database", redisCheck === "unreachable" ? "Redis" : null]
      .filter((x) => x !== null)
      .join(" and ");
    ctx.status = 503;
    ctx.set("Retry-After", "5");
    ctx.body = {
      result: "error",
      msg: `Not ready: ${down} cannot be reached`,
      code: "BAD_REQUEST",
      status: "unavailable",
      database,
      redis: redisCheck,
    };
  });
  return router;
}
