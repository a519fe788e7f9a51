/**
 * Zulip bot-library features beyond messaging: quitting, uploading a file, reading a file shipped
 * in the bot's own folder.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Bot } from "./define-bot.js";
import { BotFileError, BotQuitError, UploadsNotSupportedError } from "./errors.js";
import type { BotHandler, UploadFile, UploadedFile } from "./types.js";

/** Stops the bot: the bot server stops serving it, `run-bot` exits (Zulip's `bot_handler.quit`). */
export function quitBot(handler: BotHandler, reason?: string): never {
  if (handler.quit) return handler.quit(reason);
  throw new BotQuitError(reason);
}

/** Uploads a file through the handler → `{uri}`; a handler or server without uploads throws {@link UploadsNotSupportedError}. */
export async function uploadFile(handler: BotHandler, file: UploadFile): Promise<UploadedFile> {
  if (!handler.uploadFile) throw new UploadsNotSupportedError("(this bot handler)");
  return handler.uploadFile(file);
}

/**
 * Reads a file from the bot's own folder (the `dir` of its definition), as Zulip's
 * `bot_handler.open(path)`: relative paths only, never outside the folder.
 */
export async function readBotFile(bot: Bot, relativePath: string): Promise<string> {
  if (bot.dir === undefined) {
    throw new BotFileError(
      `Bot '${bot.name}' has no folder: give defineBot({ dir: new URL(".", import.meta.url) })`,
    );
  }
  const root = fileURLToPath(bot.dir);
  const full = path.resolve(root, relativePath);
  if (path.isAbsolute(relativePath) || !full.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
    throw new BotFileError(`Bot '${bot.name}' may only read files in its own folder, not '${relativePath}'`);
  }
  try {
    return await readFile(full, "utf8");
  } catch (err) {
    throw new BotFileError(`Bot '${bot.name}' cannot read '${relativePath}': file not found in its folder`, {
      cause: err,
    });
  }
}
