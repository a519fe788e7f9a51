import Router from "@koa/router";
import type { Services } from "../../services.js";
import type { AppState } from "../state.js";

/**
 * The image proxy (Zulip's camo): `GET /external_content/<hmac>/<hex url>` fetches the signed remote
 * image through the egress policy and serves it, so a viewer's browser never contacts the third-party
 * host. Public like Zulip's camo: the signature is the authorisation. Errors are JSON, never a 500.
 */
export function externalContentRouter(services: Pick<Services, "camo">): Router<AppState> {
  const router = new Router<AppState>();
  router.get("/external_content/:digest/:hexUrl", async (ctx) => {
    ctx.set("Content-Security-Policy", "default-src 'none'");
    ctx.set("X-Content-Type-Options", "nosniff");
    const url = services.camo.verify(ctx.params["digest"] ?? "", ctx.params["hexUrl"] ?? "");
    if (url === undefined) {
      ctx.status = 403;
      ctx.body = { result: "error", msg: "Invalid image proxy signature.", code: "BAD_SIGNATURE" };
      return;
    }
    const outcome = await services.camo.fetch(url);
    if (outcome.kind === "error") {
      ctx.status = outcome.status;
      ctx.set("Cache-Control", "no-store");
      ctx.body = { result: "error", msg: outcome.msg, code: outcome.code };
      return;
    }
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.type = outcome.contentType;
    ctx.body = outcome.body;
  });
  return router;
}
