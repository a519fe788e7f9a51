import { Wild } from "../kit/index.js";
import type { GitHubHandler } from "./types.js";

/**
 * Zulip's GitHub silent mentions: when exactly one realm user has the sender's GitHub username in
 * a GitHub external-account profile field, messages name the sender `@_**Full Name**` (a mention
 * that notifies nobody) instead of the GitHub login. Every message names the sender through
 * `sender.login` (payload.ts senderName), so the handler reads a payload whose sender login is the
 * mention; nothing else of the payload changes.
 */
export function withSilentMention(render: GitHubHandler): GitHubHandler {
  return (p, ctx) => {
    const login = p.isObject() ? p.optAt("sender", "login")?.value : undefined;
    if (typeof login !== "string") return render(p, ctx);
    const users = ctx.usersByExternalAccount("github", login);
    const only = users.length === 1 ? users[0] : undefined;
    if (only === undefined) return render(p, ctx);
    const payload = p.value as Record<string, unknown>;
    const sender = payload["sender"] as Record<string, unknown>;
    return render(new Wild({ ...payload, sender: { ...sender, login: `@_**${only}**` } }, p.path), ctx);
  };
}
