import Router from "@koa/router";
import type { Services } from "../../services.js";
import type { AppContext, AppState } from "../state.js";
import { success } from "../state.js";
import { uploadedParts } from "./uploads.js";

/** GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name} (behind API authentication). */
export function realmEmojiRouter(services: Pick<Services, "customEmoji">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1/realm/emoji" });
  const emoji = services.customEmoji;

  router.get("/", async (ctx) => {
    ctx.body = success({ emoji: await emoji.all() });
  });

  router.post("/:emoji_name", async (ctx) => {
    const files = uploadedParts(ctx).map((p) => p.bytes);
    await emoji.upload(ctx.state.user, ctx.params["emoji_name"] ?? "", files);
    ctx.body = success();
  });

  router.delete("/:emoji_name", async (ctx) => {
    await emoji.deactivate(ctx.state.user, ctx.params["emoji_name"] ?? "");
    ctx.body = success();
  });

  return router;
}

/**
 * The images at custom emoji's source_url and still_url, public as in Zulip (`<img>` tags of
 * rendered messages load them without credentials).
 */
export function emojiImagesRouter(services: Pick<Services, "customEmoji">): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/user_avatars/:realm_id/emoji/images" });
  const serve = async (ctx: AppContext, params: Record<string, string | undefined>, still: boolean) => {
    const file = await services.customEmoji.serve(params["realm_id"] ?? "", params["file"] ?? "", still);
    ctx.set("Content-Type", file.contentType);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = file.bytes;
  };
  router.get("/still/:file", (ctx) => serve(ctx, ctx.params, true));
  router.get("/:file", (ctx) => serve(ctx, ctx.params, false));
  return router;
}
