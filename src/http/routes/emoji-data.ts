import Router from "@koa/router";
import { emojiCodeToNames } from "../../domain/markdown/emoji.js";
import type { AppState } from "../state.js";

/** Where register's `server_emoji_data_url` points: public, as Zulip's static file is. */
export const EMOJI_DATA_PATH = "/static/generated/emoji/emoji_api.json";

/** GET the server's emoji names by code (the mobile app downloads it for its emoji picker). */
export function emojiDataRouter(): Router<AppState> {
  const router = new Router<AppState>();
  router.get(EMOJI_DATA_PATH, (ctx) => {
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = { code_to_names: emojiCodeToNames() };
  });
  return router;
}
