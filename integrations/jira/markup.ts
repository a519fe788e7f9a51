/**
 * Jira wiki markup → Zulip Markdown, as Zulip's Jira integration converts comments: bold, monospace,
 * block quotes, {quote}/{noformat}/{code} blocks, links and user mentions.
 */
export function convertJiraMarkup(content: string): string {
  let out = content;
  // Jira uses *word* for bold; Markdown uses **word**.
  out = out.replace(/\*([^*]+)\*/g, "**$1**");
  // {{word}} is monospace.
  out = out.replace(/\{\{([^*]+?)\}\}/g, "`$1`");
  // A line starting with "bq. " is a block quote.
  out = out.replace(/bq\. ([^\n]*)/g, "> $1");
  // {quote}…{quote} blocks.
  out = out.replace(/\{quote\}([\s\S]*?)\{quote\}/g, "~~~ quote\n$1\n~~~");
  // {noformat}…{noformat} blocks are code blocks without highlighting.
  out = out.replace(/\{noformat\}([\s\S]*?)\{noformat\}/g, "~~~\n$1\n~~~");
  // {code[:lang]}…{code} blocks.
  out = out.replace(/\{code[^\n]*\}([\s\S]*?)\{code\}/g, "~~~\n$1\n~~~");
  // Bare links [https://example.com] (no "|" inside) …
  out = out.replace(/\[([^|~]+?)\]/g, "[$1]($1)");
  // … and titled links [Title|https://example.com].
  out = out.replace(/\[(?:([^|~]+)\|)([^\]]*)\]/g, "[$1]($2)");
  // User mentions [~username]: Zulip cannot tell who that is here, so the name is made bold.
  out = out.replace(/\[~(.*?)\]/g, "**$1**");
  return out;
}

/** Jira escapes "!" as "\!" in the comment bodies of its comment_* events. */
export function normalizeComment(comment: string): string {
  return comment.replaceAll("\\!", "!");
}
