/**
 * `chat-server export-template --bot BOT --name NAME [--dir DIR]`: a template bot's saved templates
 * as an integration module in `DIR/NAME`, loadable by `serve --integrations-path DIR/NAME` and
 * checked by `test-integration` (docs/writing-integrations.md). Asks the server
 * (`POST /api/v1/bots/{id}/export_integration`) as the bot's owner or an administrator.
 */
import fs from "node:fs";
import path from "node:path";
import { ChatApiClient } from "../../bots/kit/index.js";
import type { ChatApiCredentials } from "../../bots/kit/index.js";

interface ListedBot {
  user_id: number;
  email: string;
  full_name: string;
}

/** The bot `spec` names: its email, the part before "-bot@"/"@", or its full name (any case). */
export function findBot(bots: readonly ListedBot[], spec: string): ListedBot {
  const want = spec.toLowerCase();
  const hit = bots.find((b) => {
    const email = b.email.toLowerCase();
    const local = email.split("@")[0] ?? email;
    return (
      email === want ||
      local === want ||
      local.replace(/-bot$/, "") === want ||
      b.full_name.toLowerCase() === want
    );
  });
  if (hit === undefined) {
    throw new Error(`You own no bot named '${spec}' (its email, short name or full name)`);
  }
  return hit;
}

/** Fetches the module's files and writes them into `dir/name`; answers the folder. */
export async function exportTemplate(
  rc: ChatApiCredentials,
  opts: { bot: string; name: string; dir: string; num: number },
): Promise<string> {
  const folder = path.resolve(opts.dir, opts.name);
  if (fs.existsSync(folder)) throw new Error(`${folder} exists already`);
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const listed = await client.call("GET", "bots");
  const bot = findBot(listed["bots"] as ListedBot[], opts.bot);
  const res = await client.call("POST", `bots/${bot.user_id}/export_integration`, {
    name: opts.name,
    num: opts.num,
  });
  const files = res["files"] as Record<string, string>;
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(folder, file);
    if (!target.startsWith(folder + path.sep)) throw new Error(`The server named a file outside ${folder}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  return folder;
}
