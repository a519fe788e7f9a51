import { ServiceUnavailableError, defineBot, getJson, pick } from "../kit/index.js";
import type { BotConfigInfo } from "../kit/index.js";

/** GitHub's REST API; `api_url` in the bot config overrides it (e.g. GitHub Enterprise). */
const DEFAULT_API = "https://api.github.com";

/** `owner/repo#123`, `repo#123` or `#123` anywhere in the message. */
const REFERENCE = /(?:([\w-]+)\/)?([\w-]+)?#(\d+)/g;

function usage(config: BotConfigInfo): string {
  return (
    "This plugin displays details on github issues and pull requests. " +
    "To reference an issue or pull request usename mention the bot then " +
    "anytime in the message type its id, for example:\n" +
    "@**Github detail** #3212 zulip#3212 zulip/zulip#3212\n" +
    `The default owner is ${config.owner ?? "False"} and the default repo is ${config.repo ?? "False"}.`
  );
}

async function details(api: string, owner: string, repo: string, id: string): Promise<string | undefined> {
  let res;
  try {
    res = await getJson(`${api}/repos/${owner}/${repo}/issues/${id}`, {
      headers: { accept: "application/vnd.github+json" },
    });
  } catch (err) {
    if (err instanceof ServiceUnavailableError) return undefined;
    throw err;
  }
  if (res.status !== 200) return undefined;
  const body = res.body;
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  const state = text(pick(body, "state"));
  const author = String(pick(body, "user", "login"));
  return (
    `**[${owner}/${repo}#${String(pick(body, "number"))}](${String(pick(body, "html_url"))}) - ${String(pick(body, "title"))}**\n` +
    `Created by **[${author}](https://github.com/${author})**\n` +
    `Status - **${state.charAt(0).toUpperCase()}${state.slice(1)}**\n\`\`\`quote\n${text(pick(body, "body"))}\n\`\`\``
  );
}

export default defineBot({
  name: "github_detail",
  usage:
    "Displays details on GitHub issues and pull requests: mention the bot with #3212, zulip#3212 or zulip/zulip#3212 " +
    "(default owner and repo from the [github_detail] section of the bot config file).",
  config: { section: "github_detail" },
  async handleMessage(message, bot) {
    if (message.content === "help") {
      await bot.sendReply(message, usage(bot.config));
      return;
    }
    const api = (bot.config.api_url ?? DEFAULT_API).replace(/\/+$/, "");
    const replies: string[] = [];
    for (const match of message.content.matchAll(REFERENCE)) {
      let owner = match[1];
      let repo = match[2];
      const id = match[3] ?? "";
      if (owner === undefined) {
        owner = bot.config.owner;
        repo ??= bot.config.repo;
      }
      if (owner === undefined || owner === "" || repo === undefined || repo === "") {
        replies.push("Failed to detect owner and repository name.");
        continue;
      }
      replies.push(
        (await details(api, owner, repo, id)) ?? `Failed to find issue/pr: ${owner}/${repo}#${id}`,
      );
    }
    if (replies.length === 0) replies.push("Failed to find any issue or PR.");
    await bot.sendReply(message, replies.join("\n"));
  },
});
