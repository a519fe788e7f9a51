import { ServiceUnavailableError, defineBot, getJson, pick } from "../kit/index.js";

/** MediaWiki's search API; `api_url` in the bot config overrides it. Article links stay on en.wikipedia.org. */
const DEFAULT_API = "https://en.wikipedia.org/w/api.php";
const ARTICLE_BASE = "https://en.wikipedia.org/wiki/";

const SORRY =
  "Uh-Oh ! Sorry ,couldn't process the request right now.:slightly_frowning_face:\nPlease try again later.";

async function search(api: string, query: string): Promise<string[] | undefined> {
  let res;
  try {
    res = await getJson(api, {
      searchParams: { action: "query", list: "search", srsearch: query, format: "json" },
    });
  } catch (err) {
    if (err instanceof ServiceUnavailableError) return undefined;
    throw err;
  }
  const results = pick(res.body, "query", "search");
  if (res.status !== 200 || !Array.isArray(results)) return undefined;
  return results.map((r) => String(pick(r, "title")));
}

export default defineBot({
  name: "wikipedia",
  usage: "Searches Wikipedia for a term and returns the top 3 articles: @mention-bot <name of article>",
  async handleMessage(message, bot) {
    const query = message.content;
    if (query === "") {
      await bot.sendReply(message, `Please enter your search term after ${bot.identity.mention}`);
      return;
    }
    const titles = await search(bot.config.api_url ?? DEFAULT_API, query);
    if (titles === undefined) {
      await bot.sendReply(message, SORRY);
      return;
    }
    if (titles.length === 0) {
      await bot.sendReply(
        message,
        "I am sorry. The search term you provided is not found :slightly_frowning_face:",
      );
      return;
    }
    const lines = titles.slice(0, 3).map((title, i) => {
      const slug = title.replaceAll(" ", "_");
      return `${i + 1}:[${slug}](${(ARTICLE_BASE + slug).replaceAll('"', "%22")})\n`;
    });
    await bot.sendReply(message, `For search term:${query}\n${lines.join("")}`);
  },
});
