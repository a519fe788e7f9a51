/**
 * HTML to Markdown the way Zulip's `convert_html_to_markdown` does it (html2text with its
 * defaults: inline links, 78-column wrapping, Markdown escapes), for the elements help desks put in
 * ticket descriptions: paragraphs, line breaks, links, images, emphasis, headings, lists, quotes
 * and preformatted text. Images become `[name.png](url)` links, as Zulip rewrites them.
 */

import { decodeHtmlEntities as decodeEntities } from "../kit/html-entities.js";

/** html2text's escapes of text that would otherwise read as Markdown. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/\\(?=[\\`*_{}[\]()#+.!-])/g, "\\\\")
    .replace(/^(\s*\d+)(\.)(?=\s)/gm, "$1\\$2")
    .replace(/^(\s*)(\+)(?=\s)/gm, "$1\\$2")
    .replace(/^(\s*)(-)(?=\s|-)/gm, "$1\\$2");
}

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  const raw = m?.[1] ?? m?.[2] ?? m?.[3];
  return raw === undefined ? undefined : decodeEntities(raw);
}

const BLOCKS = new Set(["p", "div", "table", "tr", "dl", "dt", "dd", "section", "article"]);

class Writer {
  private out = "";
  private pendingBreaks = 0;
  private space = false;
  private atStart = true;
  private quoteDepth = 0;
  private preDepth = 0;
  private lists: { ordered: boolean; count: number }[] = [];
  private link: { href: string; text: string } | undefined;

  paragraph(): void {
    this.pendingBreaks = 2;
  }

  lineBreak(): void {
    this.pendingBreaks = Math.max(this.pendingBreaks, 1);
  }

  /** Writes output, first the pending paragraph breaks (html2text's `o`). */
  write(data: string, pure = false): void {
    let text = data;
    if (pure && this.preDepth > 0) {
      // Preformatted text is indented as a code block, which wrapping leaves alone.
      text = `    ${text.replace(/\n/g, "\n    ")}`;
    } else if (pure) {
      text = text.replace(/\s+/g, " ");
      if (text.startsWith(" ")) {
        this.space = true;
        text = text.slice(1);
      }
    }
    if (text === "") return;
    if (this.link !== undefined && pure) {
      if (this.space && this.link.text !== "") this.link.text += " ";
      this.space = false;
      this.link.text += text;
      return;
    }
    const quote = this.quoteDepth > 0 ? `${">".repeat(this.quoteDepth)} ` : "";
    if (this.atStart) {
      this.space = false;
      this.pendingBreaks = 0;
      this.atStart = false;
    }
    if (this.pendingBreaks > 0) {
      this.out += `\n${quote}`.repeat(this.pendingBreaks);
      this.space = false;
    }
    if (this.space) {
      if (!this.out.endsWith("\n")) this.out += " ";
      this.space = false;
    }
    this.pendingBreaks = 0;
    this.out += text;
  }

  tag(name: string, start: boolean, raw: string): void {
    if (BLOCKS.has(name)) {
      this.paragraph();
    } else if (name === "br" && start) {
      this.write(this.quoteDepth > 0 ? `  \n${">".repeat(this.quoteDepth)} ` : "  \n");
    } else if (/^h[1-6]$/.test(name)) {
      this.paragraph();
      if (start) this.write(`${"#".repeat(Number(name.slice(1)))} `);
    } else if (name === "blockquote") {
      if (start) {
        this.paragraph();
        this.write("> ");
        this.quoteDepth++;
      } else {
        this.quoteDepth = Math.max(0, this.quoteDepth - 1);
        this.paragraph();
      }
    } else if (name === "strong" || name === "b") {
      this.write("**");
    } else if (name === "em" || name === "i") {
      this.write("_");
    } else if (name === "ul" || name === "ol") {
      if (start) this.lists.push({ ordered: name === "ol", count: 0 });
      else this.lists.pop();
      this.paragraph();
    } else if (name === "li" && start) {
      const list = this.lists[this.lists.length - 1];
      this.lineBreak();
      const indent = "  ".repeat(Math.max(0, this.lists.length - 1));
      if (list?.ordered === true) {
        list.count++;
        this.write(`${indent}${list.count}. `);
      } else {
        this.write(`${indent}  * `);
      }
    } else if (name === "pre") {
      this.paragraph();
      this.preDepth += start ? 1 : -1;
    } else if (name === "img" && start) {
      const src = attribute(raw, "src");
      if (src !== undefined) this.write(`![${attribute(raw, "alt") ?? ""}](${src})`);
    } else if (name === "a") {
      if (start) {
        const href = attribute(raw, "href");
        if (href !== undefined && !href.startsWith("#")) this.link = { href, text: "" };
      } else if (this.link !== undefined) {
        const link = this.link;
        this.link = undefined;
        this.write(link.text === link.href ? `<${link.href}>` : `[${link.text}](${link.href})`);
      }
    }
  }

  text(): string {
    return this.out;
  }
}

/** Python's `textwrap.wrap(para, width, break_long_words=False)`, for plain words. */
function wrap(para: string, width: number): string[] {
  const words = para
    .replace(/\t/g, " ")
    .split(" ")
    .filter((w) => w !== "");
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (Array.from(line).length + 1 + Array.from(word).length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Lines html2text leaves as they are: indented code, list items, tables, headings. */
function skipsWrap(para: string): boolean {
  if (para.startsWith("    ") || para.startsWith("\t")) return true;
  const stripped = para.trimStart();
  if (stripped.startsWith("--") || stripped.startsWith("==") || stripped.startsWith("|")) return true;
  if (stripped.startsWith("#")) return true;
  return /^[-+*]\s/.test(stripped) || /^\d+\.\s/.test(stripped);
}

/** html2text's `optwrap`: paragraphs wrapped at 78 columns, runs of blank lines collapsed. */
function optwrap(text: string, width = 78): string {
  let result = "";
  let newlines = 0;
  for (const para of text.split("\n")) {
    if (para.length > 0) {
      if (!skipsWrap(para)) {
        result += wrap(para, width).join("\n");
        if (para.endsWith("  ")) {
          result += "  \n";
          newlines = 1;
        } else {
          result += "\n\n";
          newlines = 2;
        }
      } else {
        result += `${para}\n`;
        newlines = 1;
      }
    } else if (newlines < 2) {
      result += "\n";
      newlines++;
    }
  }
  return result;
}

export function htmlToMarkdown(html: string): string {
  const writer = new Writer();
  const source = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "");
  const token = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>|([^<]+)|</g;
  for (const m of source.matchAll(token)) {
    if (m[2] !== undefined) writer.tag(m[2].toLowerCase(), m[1] !== "/", m[0]);
    else writer.write(escapeMarkdown(decodeEntities(m[3] ?? m[0])), true);
  }
  const markdown = optwrap(writer.text()).trim();
  // Zulip links images by their file name instead of showing `![](…)`.
  return markdown.replace(/!\[\]\((\S*)\/(\S*)\?(\S*)\)/g, "[$2]($1/$2)");
}
