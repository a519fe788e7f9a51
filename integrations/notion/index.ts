import { InvalidPayloadError } from "../../src/errors.js";
import { ServiceApiError, Wild, defineIntegration } from "../kit/index.js";
import type { Handler, WebhookContext } from "../kit/index.js";

/**
 * Notion's webhooks (a workspace's integration → Webhooks): POST /api/v1/external/notion. When a
 * subscription is created, Notion sends a verification request whose token the subscriber must
 * paste back into Notion: it is posted to the stream. Notion's events (pages, databases, data
 * sources, comments) carry only ids: with the Notion integration's secret in the bot's config
 * (`notion_token`), the page's or database's title and link, the authors' names and the comment's
 * text are read from Notion's API (`ctx.fetchJson`); without it, or when a lookup fails, the
 * message says what happened with the ids the event carries.
 */

/** Notion's API (the bot's config `notion_api_url` replaces it: a proxy, a test double). */
const NOTION_API = "https://api.notion.com";
/** The API version asked for (`Notion-Version`): the one with data sources. */
const NOTION_VERSION = "2025-09-03";
/** Topics when the title cannot be read. */
const PAGES_TOPIC = "Notion pages";
const DATABASES_TOPIC = "Notion databases";
/** Authors looked up by name; more are counted ("and 2 others"). */
const MAX_AUTHORS = 3;

/** What an event is about: its entity, or for a comment the page it is on. */
type About = "page" | "database" | "data_source" | "comment";

/** What the body adds after its sentence. */
type Detail = "properties" | "schema" | "comment";

interface NotionEvent {
  about: About;
  /** The sentence after the authors, ending with the object (`page [Q3 plan](…)`). */
  action: (object: string) => string;
  detail?: Detail;
}

/** Notion's event types (the event names `only_events` / `exclude_events` match, `page.*` too). */
const EVENTS: Readonly<Record<string, NotionEvent>> = {
  "page.created": { about: "page", action: (o) => `created ${o}` },
  "page.properties_updated": {
    about: "page",
    action: (o) => `updated the properties of ${o}`,
    detail: "properties",
  },
  "page.content_updated": { about: "page", action: (o) => `edited ${o}` },
  "page.moved": { about: "page", action: (o) => `moved ${o}` },
  "page.deleted": { about: "page", action: (o) => `deleted ${o}` },
  "page.undeleted": { about: "page", action: (o) => `restored ${o}` },
  "page.locked": { about: "page", action: (o) => `locked ${o}` },
  "page.unlocked": { about: "page", action: (o) => `unlocked ${o}` },
  "database.created": { about: "database", action: (o) => `created ${o}` },
  "database.content_updated": { about: "database", action: (o) => `changed the content of ${o}` },
  "database.schema_updated": {
    about: "database",
    action: (o) => `changed the schema of ${o}`,
    detail: "schema",
  },
  "database.moved": { about: "database", action: (o) => `moved ${o}` },
  "database.deleted": { about: "database", action: (o) => `deleted ${o}` },
  "database.undeleted": { about: "database", action: (o) => `restored ${o}` },
  "data_source.created": { about: "data_source", action: (o) => `created ${o}` },
  "data_source.content_updated": { about: "data_source", action: (o) => `changed the content of ${o}` },
  "data_source.schema_updated": {
    about: "data_source",
    action: (o) => `changed the schema of ${o}`,
    detail: "schema",
  },
  "data_source.moved": { about: "data_source", action: (o) => `moved ${o}` },
  "data_source.deleted": { about: "data_source", action: (o) => `deleted ${o}` },
  "data_source.undeleted": { about: "data_source", action: (o) => `restored ${o}` },
  "comment.created": { about: "comment", action: (o) => `commented on ${o}`, detail: "comment" },
  "comment.updated": { about: "comment", action: (o) => `edited a comment on ${o}`, detail: "comment" },
  "comment.deleted": { about: "comment", action: (o) => `deleted a comment on ${o}` },
};

/** A page, database or data source as the API tells it (what the message names and links). */
interface Titled {
  title: string;
  url: string | undefined;
  /** A page's properties: name by property id (as `updated_properties` lists them). */
  propertyNames: ReadonlyMap<string, string>;
}

/** The Notion API with the bot's token, or undefined when the bot has none. */
interface NotionApi {
  get(path: string): Promise<Wild | undefined>;
}

function notionApi(ctx: WebhookContext): NotionApi | undefined {
  const config = ctx.botConfig();
  const token = (config["notion_token"] ?? "").trim();
  if (token === "") return undefined;
  const base = (config["notion_api_url"] ?? "").trim().replace(/\/+$/, "") || NOTION_API;
  const headers = { Authorization: `Bearer ${token}`, "Notion-Version": NOTION_VERSION };
  return {
    // A failed lookup, or an answer of an unexpected shape, leaves that part to the ids.
    async get(path) {
      try {
        return new Wild(await ctx.fetchJson(`${base}${path}`, { headers }), "Notion's answer");
      } catch (err) {
        if (err instanceof ServiceApiError) return undefined;
        throw err;
      }
    },
  };
}

/** Reads an API answer; a shape it does not expect gives undefined (the ids are posted instead). */
function readAnswer<T>(answer: Wild | undefined, read: (w: Wild) => T): T | undefined {
  if (answer === undefined) return undefined;
  try {
    return read(answer);
  } catch (err) {
    if (err instanceof InvalidPayloadError) return undefined;
    throw err;
  }
}

/** The plain text of a rich text array. */
function plainText(richText: Wild | undefined): string {
  return (richText?.items() ?? []).map((t) => Wild.strOrNull(t.opt("plain_text")) ?? "").join("");
}

/** A title on one line ("Untitled" when blank, as Notion shows it). */
function titleOf(richText: Wild | undefined): string {
  return plainText(richText).replace(/\s+/g, " ").trim() || "Untitled";
}

/** A percent-encoded property id and its decoded form compare equal. */
function propertyKey(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

function path(kind: string, id: string): string {
  return `/v1/${kind}/${encodeURIComponent(id)}`;
}

async function page(api: NotionApi, id: string): Promise<Titled | undefined> {
  return readAnswer(await api.get(path("pages", id)), (w) => {
    let title: string | undefined;
    const propertyNames = new Map<string, string>();
    for (const [name, property] of w.get("properties").entries()) {
      const propertyId = Wild.strOrNull(property.opt("id"));
      if (propertyId !== null) propertyNames.set(propertyKey(propertyId), name);
      if (title === undefined && Wild.strOrNull(property.opt("type")) === "title") {
        title = titleOf(property.opt("title"));
      }
    }
    if (title === undefined) throw new InvalidPayloadError("a page without a title property");
    return { title, url: Wild.strOrNull(w.opt("url")) ?? undefined, propertyNames };
  });
}

/** A database (`/v1/databases`) or a data source (`/v1/data_sources`): its title and link. */
async function database(
  api: NotionApi,
  kind: "databases" | "data_sources",
  id: string,
): Promise<Titled | undefined> {
  return readAnswer(await api.get(path(kind, id)), (w): Titled => ({
    title: titleOf(w.get("title")),
    url: Wild.strOrNull(w.opt("url")) ?? undefined,
    propertyNames: new Map(),
  }));
}

async function commentText(api: NotionApi, id: string): Promise<string | undefined> {
  return readAnswer(await api.get(path("comments", id)), (w) => plainText(w.get("rich_text")));
}

async function userName(api: NotionApi, id: string): Promise<string | undefined> {
  return readAnswer(await api.get(path("users", id)), (w) => Wild.strOrNull(w.opt("name")) || undefined);
}

/** "A", "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Who acted: the authors' names as the API gives them, the others counted. */
async function authorsOf(payload: Wild, api: NotionApi | undefined): Promise<string> {
  const ids = (payload.opt("authors")?.items() ?? []).map((a) => a.get("id").str());
  const names =
    api === undefined
      ? []
      : (await Promise.all(ids.slice(0, MAX_AUTHORS).map((id) => userName(api, id)))).filter(
          (n): n is string => n !== undefined,
        );
  const others = ids.length - names.length;
  if (names.length === 0) return ids.length <= 1 ? "Someone" : `${ids.length} people`;
  return listed(others === 0 ? names : [...names, others === 1 ? "1 other" : `${others} others`]);
}

/** `page [Q3 plan](https://…)`, `page **Q3 plan**` without a link, or `page \`<id>\``. */
function objectText(noun: string, id: string | undefined, found: Titled | undefined): string {
  if (found === undefined) return id === undefined ? `a ${noun}` : `${noun} \`${id}\``;
  const text = found.title.replace(/([[\]\\])/g, "\\$1");
  return found.url === undefined ? `${noun} **${text}**` : `${noun} [${text}](${found.url})`;
}

/** A quote block whose fence no backtick run of the text closes. */
function quoted(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}quote\n${text}\n${fence}`;
}

const SCHEMA_ACTIONS: Readonly<Record<string, string>> = {
  created: "added",
  updated: "changed",
  deleted: "removed",
};

/** The changed columns of a schema update, as the payload names them. */
function schemaLines(data: Wild | undefined): string[] {
  return (data?.opt("updated_properties")?.items() ?? []).flatMap((p) => {
    const name = Wild.strOrNull(p.opt("name"));
    if (name === null) return [];
    const action = Wild.strOrNull(p.opt("action")) ?? "updated";
    return [`* ${SCHEMA_ACTIONS[action] ?? action} **${name}**`];
  });
}

/** The page a comment is on: `data.page_id`, else its parent when that is a page. */
function commentPageId(data: Wild | undefined): string | undefined {
  const pageId = Wild.strOrNull(data?.opt("page_id"));
  if (pageId !== null) return pageId;
  const parent = data?.opt("parent");
  return Wild.strOrNull(parent?.opt("type")) === "page"
    ? (Wild.strOrNull(parent?.opt("id")) ?? undefined)
    : undefined;
}

/** Every Notion event: the table's entry of its type says what the message says. */
const notionEvent: Handler = async (payload, ctx) => {
  const event = EVENTS[ctx.event];
  if (event === undefined) throw new Error(`No entry for Notion's event '${ctx.event}'`);
  const api = notionApi(ctx);
  const entityId = payload.at("entity", "id").str();
  const data = payload.opt("data");
  const workspace = Wild.strOrNull(payload.opt("workspace_name"));
  const subjectId = event.about === "comment" ? commentPageId(data) : entityId;
  const wantsText = event.detail === "comment";
  const [subject, text, who] = await Promise.all([
    api === undefined || subjectId === undefined
      ? undefined
      : event.about === "database"
        ? database(api, "databases", subjectId)
        : event.about === "data_source"
          ? database(api, "data_sources", subjectId)
          : page(api, subjectId),
    api === undefined || !wantsText ? undefined : commentText(api, entityId),
    authorsOf(payload, api),
  ]);
  const noun =
    event.about === "comment" ? "page" : event.about === "data_source" ? "data source" : event.about;
  let sentence = event.action(objectText(noun, subjectId, subject));
  let details: string | undefined;
  if (event.detail === "properties" && subject !== undefined) {
    const names = (data?.opt("updated_properties")?.items() ?? []).map((p) =>
      typeof p.value === "string" ? subject.propertyNames.get(propertyKey(p.value)) : undefined,
    );
    const found = names.filter((n): n is string => n !== undefined);
    if (found.length > 0 && found.length === names.length) {
      sentence = `updated ${listed(found.map((n) => `**${n}**`))} of ${objectText(noun, subjectId, subject)}`;
    }
  } else if (event.detail === "schema") {
    const lines = schemaLines(data);
    if (lines.length > 0) details = lines.join("\n");
  } else if (event.detail === "comment" && text !== undefined && text !== "") {
    details = quoted(text);
  }
  const where = workspace === null || workspace === "" ? "" : ` in ${workspace}`;
  const head = `${who} ${sentence}${where}`;
  const topic =
    subject?.title ??
    (event.about === "database" || event.about === "data_source" ? DATABASES_TOPIC : PAGES_TOPIC);
  return { topic, body: details === undefined ? `${head}.` : `${head}:\n${details}` };
};

export default defineIntegration({
  name: "notion",
  displayName: "Notion",
  categories: ["productivity"],
  description:
    "Posts Notion's page, database and comment events, with titles, links and names read from Notion's API.",
  // Notion signs every event with X-Notion-Signature: `sha256=` and the hex HMAC-SHA256 of the body,
  // keyed with the subscription's verification token (set it as the bot's `webhook_secret`).
  signature: { kind: "hmac", header: "X-Notion-Signature", algorithm: "sha256", prefix: "sha256=" },
  // `notion_token` (and `notion_api_url`) in the bot's config; the lookups in Notion's API.
  needs: ["botConfig", "http"],
  classify: ({ payload }) =>
    payload.opt("verification_token") === undefined ? payload.get("type").str() : "verification",
  events: {
    verification: (p) => ({
      topic: "Verification",
      body:
        "Notion webhook has been successfully configured.\n" +
        `Your verification token is: \`${p.get("verification_token").str()}\`\n` +
        "Please copy this token and paste it into your Notion webhook configuration to complete the setup.",
    }),
    ...Object.fromEntries(Object.keys(EVENTS).map((type) => [type, notionEvent])),
  },
});
