import { Wild } from "../kit/index.js";
import { pyStrip, unixToIso } from "../kit/message-text.js";

/** Non-empty pieces, stripped, separated by blank lines. */
export function joinPieces(pieces: string[]): string {
  return pieces
    .map(pyStrip)
    .filter((p) => p !== "")
    .join("\n\n");
}

/** A text object (`{type: "plain_text" | "mrkdwn", text}`). */
function textOf(block: Wild): string {
  return block.get("text").str();
}

/** Block elements: Zulip has no interactive elements, so only images are shown. */
function renderBlockElement(element: Wild): string {
  if (element.get("type").str() === "image") {
    return `[${element.get("alt_text").str()}](${element.get("image_url").str()})`;
  }
  return "";
}

/** Section fields: one is shown as is; several become a two-column table. */
function renderFields(fields: Wild[]): string {
  if (fields.length === 1) return textOf(fields[0] as Wild);
  // Table cells can hold neither newlines nor pipes.
  const cells = fields.map((f) => textOf(f).replaceAll("\n", " ").replaceAll("|", " "));
  let table = "| | |\n|-|-|\n";
  for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i] ?? ""} | ${cells[i + 1] ?? ""} |\n`;
  return table;
}

/** A Block Kit block (https://api.slack.com/reference/block-kit/blocks) as Markdown. */
export function renderBlock(block: Wild): string {
  switch (block.get("type").str()) {
    case "context": {
      const elements = block.opt("elements");
      if (!Wild.truthy(elements)) return "";
      // Slack packs these left to right; they are simply stacked here.
      return joinPieces(
        elements.items().map((e) => (e.get("type").str() === "image" ? renderBlockElement(e) : textOf(e))),
      );
    }
    case "divider":
      return "----";
    case "header":
      return "## " + textOf(block.get("text"));
    case "image": {
      const title = block.opt("title");
      const alt = title !== undefined ? textOf(title) : block.get("alt_text").str();
      return `[${alt}](${block.get("image_url").str()})`;
    }
    case "section": {
      const pieces: string[] = [];
      const text = block.opt("text");
      if (text !== undefined) pieces.push(textOf(text));
      const accessory = block.opt("accessory");
      if (accessory !== undefined) pieces.push(renderBlockElement(accessory));
      const fields = block.opt("fields");
      if (fields !== undefined) pieces.push(renderFields(fields.items()));
      return joinPieces(pieces);
    }
    default:
      // "actions" and "input" blocks are interactive: nothing to show.
      return "";
  }
}

/** A legacy attachment (https://api.slack.com/reference/messaging/attachments) as Markdown. */
export function renderAttachment(attachment: Wild): string {
  const pieces: string[] = [];
  const title = attachment.opt("title");
  if (Wild.truthy(title)) {
    const link = attachment.opt("title_link");
    pieces.push(Wild.truthy(link) ? `## [${title.str()}](${link.str()})` : `## ${title.str()}`);
  }
  for (const key of ["pretext", "text"]) {
    const value = attachment.opt(key);
    if (Wild.truthy(value)) pieces.push(value.str());
  }
  const fields = attachment.opt("fields");
  if (fields !== undefined) {
    const lines: string[] = [];
    for (const field of fields.items()) {
      const t = field.opt("title");
      const v = field.opt("value");
      if (Wild.truthy(t) && Wild.truthy(v)) lines.push(`*${t.text()}*: ${v.text()}`);
      else if (Wild.truthy(t)) lines.push(`*${t.text()}*`);
      else if (Wild.truthy(v)) lines.push(v.text());
    }
    pieces.push(lines.join("\n"));
  }
  const blocks = attachment.opt("blocks");
  if (Wild.truthy(blocks)) pieces.push(...blocks.items().map(renderBlock));
  const image = attachment.opt("image_url");
  if (Wild.truthy(image)) pieces.push(`[](${image.str()})`);
  const footer = attachment.opt("footer");
  if (Wild.truthy(footer)) pieces.push(footer.str());
  const ts = attachment.opt("ts");
  if (Wild.truthy(ts)) pieces.push(`<time:${unixToIso(Number(ts.text()), true)}>`);
  return joinPieces(pieces);
}

const WORD = String.raw`[\p{L}\p{N}_]`;
const NON_WORD = String.raw`[^\p{L}\p{N}_]`;
const SLACK_LINK = new RegExp(String.raw`<(${WORD}+?:\/\/[^\n]*?)\|([^\n]*?)>`, "gu");
const SLACK_BOLD = new RegExp(
  String.raw`(${NON_WORD}|^)\*(?!\s+)([^*\n]+)(?<!\s)\*((?=${NON_WORD})|$)`,
  "gu",
);
const SLACK_ITALIC = new RegExp(
  String.raw`(${NON_WORD}|^)_(?!\s+)([^_\n]+)(?<!\s)_((?=${NON_WORD})|$)`,
  "gu",
);

/** Slack's `<url|text>` links → Markdown links. */
export function replaceLinks(text: string): string {
  return text.replace(SLACK_LINK, "[$2]($1)");
}

/** Slack's mrkdwn `*bold*` and `_italic_` → Zulip's `**bold**` and `*italic*`. */
export function replaceFormatting(text: string): string {
  return text.replace(SLACK_BOLD, "$1**$2**$3").replace(SLACK_ITALIC, "$1*$2*$3");
}
