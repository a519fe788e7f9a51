/**
 * Slack's message formatting → Zulip Markdown, as Zulip's Slack integration converts it
 * (zerver/data_import/slack_message_conversion.py): bold, strikethrough and italics only where
 * Slack would format them (between punctuation, spaces, symbols or line ends), workspace mentions,
 * links and mailto links.
 */

/** Slack's rule for where `*`, `~` or `_` formatting may open and close (Zulip's regexes). */
function formatting(mark: string): RegExp {
  const m = mark === "*" ? "\\*" : mark;
  // Not after/before the mark itself, a backtick, @, a backslash, or closing/opening punctuation.
  const notBefore = `(?![${m}\`@\\\\\\p{Pf}\\p{Pe}])`;
  const notAfter = `(?![${m}\`@\\\\\\p{Pi}\\p{Ps}])`;
  const edge = "[\\p{P}\\p{Zs}\\p{S}]";
  return new RegExp(`(${notBefore}${edge}|^)(${m})([^${m}]+)(${m})(${notAfter}(?=${edge}|$))`, "gmu");
}

const BOLD = formatting("*");
const STRIKETHROUGH = formatting("~");
const ITALIC = formatting("_");

/** `*bold*` → `**bold**`, `~strike~` → `~~strike~~`, `_italic_` → `*italic*`. */
export function convertSlackFormatting(text: string): string {
  const apply = (t: string, re: RegExp, kw: string): string =>
    t.replace(re, (_all, before: string, _open: string, inner: string) => `${before}${kw}${inner}${kw}`);
  return apply(apply(apply(text, BOLD, "**"), STRIKETHROUGH, "~~"), ITALIC, "*");
}

/** `<!everyone>`, `<!channel>` and `<!here>` → `@**all**`. */
export function convertSlackWorkspaceMentions(text: string): string {
  return text
    .replaceAll("<!everyone>", "@**all**")
    .replaceAll("<!channel>", "@**all**")
    .replaceAll("<!here>", "@**all**");
}

/**
 * Zulip's LINK_REGEX. Its tail, `(\/[^>]*)?(\|)?(?:\|([^>]+))?>`, matches exactly what
 * `(?:[/|][^>]*)?>` matches (only the whole match is used), written so that text without a closing
 * `>` costs linear time instead of quadratic.
 */
const LINK =
  /<(?:http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:[/|][^>]*)?>/g;

const MAILTO =
  /<((mailto:)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+))(\|)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+)?>/gu;

/** `<https://foo.com|foo>` → `[foo](https://foo.com)`, `<https://foo.com>` → `https://foo.com`, `<mailto:a@b.c|a@b.c>` → `mailto:a@b.c`. */
export function replaceLinks(text: string): string {
  let out = text;
  for (const match of text.matchAll(LINK)) {
    const slackUrl = match[0];
    const inner = slackUrl.slice(1, -1);
    const pipe = inner.indexOf("|");
    const converted = pipe === -1 ? inner : `[${inner.slice(pipe + 1)}](${inner.slice(0, pipe)})`;
    out = out.replaceAll(slackUrl, converted);
  }
  for (const match of out.matchAll(MAILTO)) out = out.replaceAll(match[0], match[1] ?? "");
  return out;
}

const USER_MENTION = /(<@)([a-zA-Z0-9]+)(\|)?([a-zA-Z0-9]+)?(>)/;
const CHANNEL_MENTION = /(?<=<#)(.*)(?=>)/;

/** The user ids of the `<@U123>` mentions `convertSlackUserAndChannelMentions` replaces, in order. */
export function slackUserMentionIds(text: string): string[] {
  return text.split(" ").flatMap((token) => {
    const id = USER_MENTION.exec(token)?.[2];
    return id === undefined ? [] : [id];
  });
}

/**
 * `<@U123>` → `@**<name>**` and `<#C123|general>` → `**#general**`, word by word (a mention
 * replaces its whole word), as Zulip does. The name is the one `names` gives (Slack's API, asked
 * by the caller), else the mention's own short name when it has one, else the user id.
 */
export function convertSlackUserAndChannelMentions(
  text: string,
  names: Readonly<Record<string, string>> = {},
): string {
  return text
    .split(" ")
    .map((token) => {
      const user = USER_MENTION.exec(token);
      if (user !== null) {
        const id = user[2] ?? "";
        return `@**${names[id] ?? user[4] ?? id}**`;
      }
      const channel = CHANNEL_MENTION.exec(token);
      if (channel !== null) {
        const name = channel[0].split("|")[1] ?? "";
        return name !== "" ? `**#${name}**` : "**#[private Slack channel]**";
      }
      return token;
    })
    .join(" ");
}
