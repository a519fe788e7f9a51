import { ServiceUnavailableError, defineBot, getJson, pick } from "../kit/index.js";

/** The comic JSON API (`<api_url>/info.0.json`, `<api_url>/<id>/info.0.json`); `api_url` in the bot config overrides it. */
const DEFAULT_API = "https://xkcd.com";

const SORRY = "Sorry, I cannot process your request right now, please try again later!";

class NotFound extends Error {}

async function fetchComic(api: string, id?: number): Promise<Record<string, unknown>> {
  const url = id === undefined ? `${api}/info.0.json` : `${api}/${id}/info.0.json`;
  const res = await getJson(url);
  if (res.status === 404) throw new NotFound();
  if (res.status !== 200 || typeof res.body !== "object" || res.body === null) {
    throw new ServiceUnavailableError(`xkcd answered HTTP ${res.status}`);
  }
  return res.body as Record<string, unknown>;
}

function helpText(mention: string, intro: string): string {
  return (
    `${intro}` +
    `\n* \`${mention} help\` to show this help message.` +
    `\n* \`${mention} latest\` to fetch the latest comic strip from xkcd.` +
    `\n* \`${mention} random\` to fetch a random comic strip from xkcd.` +
    `\n* \`${mention} <comic id>\` to fetch a comic strip based on \`<comic id>\` e.g \`${mention} 1234\`.`
  );
}

export default defineBot({
  name: "xkcd",
  usage: [
    "Fetches comic strips from https://xkcd.com.",
    "- @mention-bot help: the commands",
    "- @mention-bot latest: the latest comic strip",
    "- @mention-bot random: a random comic strip",
    "- @mention-bot <comic id>: that comic strip, e.g. @mention-bot 1234",
  ].join("\n"),
  async handleMessage(message, bot) {
    const api = (bot.config.api_url ?? DEFAULT_API).replace(/\/+$/, "");
    const command = message.content.trim();
    const mention = bot.identity.mention;
    let reply: string;
    try {
      let comic: Record<string, unknown>;
      if (command === "help") {
        reply = helpText(mention, "xkcd bot supports these commands:");
        await bot.sendReply(message, reply);
        return;
      } else if (command === "latest") {
        comic = await fetchComic(api);
      } else if (command === "random") {
        const latest = Number(pick(await fetchComic(api), "num"));
        if (!Number.isInteger(latest) || latest < 1) throw new ServiceUnavailableError("no latest comic");
        comic = await fetchComic(api, 1 + Math.floor(Math.random() * latest));
      } else if (/^\d+$/.test(command)) {
        comic = await fetchComic(api, Number(command));
      } else {
        await bot.sendReply(
          message,
          helpText(mention, `xkcd bot only supports these commands, not \`${command}\`:`),
        );
        return;
      }
      reply = `#${String(comic.num)}: **${String(comic.title)}**\n[${String(comic.alt)}](${String(comic.img)})`;
    } catch (err) {
      if (err instanceof NotFound) reply = `Sorry, there is likely no xkcd comic strip with id: #${command}`;
      else if (err instanceof ServiceUnavailableError) reply = SORRY;
      else throw err;
    }
    await bot.sendReply(message, reply);
  },
});
