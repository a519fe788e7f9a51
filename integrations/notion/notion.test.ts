import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { ServiceApiError } from "../kit/service-api.js";
import { dispatchWebhookAsync, type JsonFetcher } from "../kit/stages.js";
import { fixtureRequest } from "../kit/fixtures.js";
import { describeCases, describeSignature, onlyMessage } from "../kit/testing.js";
import notion from "./index.js";

describeCases(notion, new URL("./fixtures/cases", import.meta.url));

const dir = new URL(".", import.meta.url);
const TOKEN = "ntn_test_0123456789";
const PAGE_URL = "https://www.notion.so/Q3-plan-1a2b3c4d5e6f4a7b8c9d0e1f2a3b4c5d";
const PAGE = `[Q3 plan](${PAGE_URL})`;
const DATABASE = "[Roadmap](https://www.notion.so/2b3c4d5e6f7a4b8c9d0e1f2a3b4c5d6e)";

/** One request to the stubbed API. */
interface Call {
  url: string;
  headers: Readonly<Record<string, string>>;
}

/**
 * Notion's API as recorded in fixtures/notion-api/ (`<path>.json` answers GET https://api.notion.com/<path>);
 * `fail` answers the URLs it matches with ServiceApiError (as the server's fetcher does); any
 * other URL fails the test.
 */
function notionApi(calls: Call[], fail: (url: string) => boolean = () => false): JsonFetcher {
  return (url, headers) => {
    calls.push({ url, headers });
    if (fail(url)) return Promise.reject(new ServiceApiError(`${url} answered HTTP 404`, url, 404));
    const m = /^https:\/\/api\.notion\.com\/(v1\/[a-z_]+\/[0-9a-f-]+)$/.exec(url);
    const file = m === null ? undefined : new URL(`./fixtures/notion-api/${m[1]}.json`, import.meta.url);
    if (file === undefined || !fs.existsSync(fileURLToPath(file))) {
      throw new Error(`The test's Notion API has no answer for ${url}`);
    }
    return Promise.resolve(JSON.parse(fs.readFileSync(file, "utf8")) as unknown);
  };
}

async function post(
  fixture: string,
  opts: { config?: Record<string, string>; fail?: (url: string) => boolean; payload?: unknown } = {},
): Promise<{ message: { topic: string; body: string }; calls: Call[] }> {
  const calls: Call[] = [];
  const request = fixtureRequest(notion, dir, fixture);
  const outcome = await dispatchWebhookAsync(notion, {
    ...request,
    ...(opts.payload === undefined ? {} : { rawBody: Buffer.from(JSON.stringify(opts.payload)) }),
    botConfig: () => opts.config ?? { notion_token: TOKEN },
    fetchJson: notionApi(calls, opts.fail),
  });
  const { topic, body } = onlyMessage(outcome);
  return { message: { topic, body }, calls };
}

/** A fixture's payload, to edit. */
function payloadOf(fixture: string): Record<string, unknown> {
  return JSON.parse(
    fs.readFileSync(fileURLToPath(new URL(`./fixtures/${fixture}.json`, import.meta.url)), "utf8"),
  ) as Record<string, unknown>;
}

describe("notion: events worded with Notion's API (the bot's notion_token)", () => {
  it("page.created: the author, the page's title and link; the topic is the page's title", async () => {
    const { message, calls } = await post("page_created");
    expect(message).toEqual({ topic: "Q3 plan", body: `Ann Lee created page ${PAGE} in Acme Labs.` });
    expect(calls).toEqual([
      {
        url: "https://api.notion.com/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        headers: { Authorization: `Bearer ${TOKEN}`, "Notion-Version": "2025-09-03" },
      },
      {
        url: "https://api.notion.com/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
        headers: { Authorization: `Bearer ${TOKEN}`, "Notion-Version": "2025-09-03" },
      },
    ]);
  });

  it("page.properties_updated names the properties by the page's property ids", async () => {
    const { message } = await post("page_properties_updated");
    expect(message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee updated **Status** and **Due** of page ${PAGE} in Acme Labs.`,
    });
  });

  it("page.properties_updated with a property id the page no longer has says 'the properties'", async () => {
    const payload = payloadOf("page_properties_updated");
    (payload["data"] as Record<string, unknown>)["updated_properties"] = ["XGe%40", "gone"];
    const { message } = await post("page_properties_updated", { payload });
    expect(message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee updated the properties of page ${PAGE} in Acme Labs.`,
    });
  });

  it("page.content_updated aggregated over two authors names both", async () => {
    const { message } = await post("page_content_updated");
    expect(message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee and Bo Chen edited page ${PAGE} in Acme Labs.`,
    });
  });

  it("page.moved and page.deleted (by a bot, named as Notion names it)", async () => {
    expect((await post("page_moved")).message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee moved page ${PAGE} in Acme Labs.`,
    });
    expect((await post("page_deleted")).message).toEqual({
      topic: "Q3 plan",
      body: `Roadmap sync deleted page ${PAGE} in Acme Labs.`,
    });
  });

  it.each([
    ["page.undeleted", `Ann Lee restored page ${PAGE} in Acme Labs.`],
    ["page.locked", `Ann Lee locked page ${PAGE} in Acme Labs.`],
    ["page.unlocked", `Ann Lee unlocked page ${PAGE} in Acme Labs.`],
  ])("%s", async (type, body) => {
    const payload = { ...payloadOf("page_created"), type };
    expect((await post("page_created", { payload })).message).toEqual({ topic: "Q3 plan", body });
  });

  it("database.created: the database's title (its rich text joined) and link", async () => {
    expect((await post("database_created")).message).toEqual({
      topic: "Roadmap",
      body: `Ann Lee created database ${DATABASE} in Acme Labs.`,
    });
  });

  it("database.schema_updated lists the changed columns the payload names", async () => {
    expect((await post("database_schema_updated")).message).toEqual({
      topic: "Roadmap",
      body:
        `Ann Lee changed the schema of database ${DATABASE} in Acme Labs:\n` +
        "* added **Launch date**\n* changed **Blurb**\n* removed **Notes**",
    });
  });

  it.each([
    ["database.content_updated", `Ann Lee changed the content of database ${DATABASE} in Acme Labs.`],
    ["database.moved", `Ann Lee moved database ${DATABASE} in Acme Labs.`],
    ["database.deleted", `Ann Lee deleted database ${DATABASE} in Acme Labs.`],
    ["database.undeleted", `Ann Lee restored database ${DATABASE} in Acme Labs.`],
  ])("%s", async (type, body) => {
    const payload = { ...payloadOf("database_created"), type };
    expect((await post("database_created", { payload })).message).toEqual({ topic: "Roadmap", body });
  });

  it("data_source.content_updated: a data source without a url is named in bold", async () => {
    const { message, calls } = await post("data_source_content_updated");
    expect(message).toEqual({
      topic: "Roadmap tasks",
      body: "Ann Lee changed the content of data source **Roadmap tasks** in Acme Labs.",
    });
    expect(calls.map((c) => c.url)).toEqual([
      "https://api.notion.com/v1/data_sources/3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f",
      "https://api.notion.com/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
    ]);
  });

  it.each([
    ["data_source.created", "Ann Lee created data source **Roadmap tasks** in Acme Labs."],
    ["data_source.moved", "Ann Lee moved data source **Roadmap tasks** in Acme Labs."],
    ["data_source.deleted", "Ann Lee deleted data source **Roadmap tasks** in Acme Labs."],
    ["data_source.undeleted", "Ann Lee restored data source **Roadmap tasks** in Acme Labs."],
    [
      "data_source.schema_updated",
      "Ann Lee changed the schema of data source **Roadmap tasks** in Acme Labs.",
    ],
  ])("%s", async (type, body) => {
    const payload = { ...payloadOf("data_source_content_updated"), type };
    expect((await post("data_source_content_updated", { payload })).message).toEqual({
      topic: "Roadmap tasks",
      body,
    });
  });

  it("comment.created quotes the comment, in the topic of the page it is on", async () => {
    const { message, calls } = await post("comment_created");
    expect(message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee commented on page ${PAGE} in Acme Labs:\n\`\`\`quote\nCan we move the launch to week 3?\n\`\`\``,
    });
    expect(calls.map((c) => c.url)).toEqual([
      "https://api.notion.com/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
      "https://api.notion.com/v1/comments/5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
      "https://api.notion.com/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
    ]);
  });

  it("a comment on a block: the page of data.page_id; a fence longer than the comment's backticks", async () => {
    expect((await post("comment_created_on_block")).message).toEqual({
      topic: "Q3 plan",
      body:
        `Bo Chen commented on page ${PAGE} in Acme Labs:\n` +
        "````quote\nUse ``` fences in the spec, like `npm test`\n````",
    });
  });

  it("comment.updated quotes the new text; comment.deleted asks nothing about the comment", async () => {
    expect((await post("comment_updated")).message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee edited a comment on page ${PAGE} in Acme Labs:\n\`\`\`quote\nCan we move the launch to week 3?\n\`\`\``,
    });
    const deleted = await post("comment_deleted");
    expect(deleted.message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee deleted a comment on page ${PAGE} in Acme Labs.`,
    });
    expect(deleted.calls.map((c) => c.url)).toEqual([
      "https://api.notion.com/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
      "https://api.notion.com/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
    ]);
  });

  it("asks notion_api_url instead of api.notion.com when the bot's config gives one", async () => {
    const calls: Call[] = [];
    const outcome = await dispatchWebhookAsync(notion, {
      ...fixtureRequest(notion, dir, "page_moved"),
      botConfig: () => ({ notion_token: TOKEN, notion_api_url: "https://notion-proxy.example.com/" }),
      fetchJson: (url, headers) => {
        calls.push({ url, headers });
        return Promise.reject(new ServiceApiError(`${url} answered HTTP 502`, url, 502));
      },
    });
    expect(onlyMessage(outcome).body).toBe(
      "Someone moved page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    );
    expect(calls.map((c) => c.url)).toEqual([
      "https://notion-proxy.example.com/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
      "https://notion-proxy.example.com/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
    ]);
  });
});

describe("notion: without a token, or when Notion's API fails", () => {
  it("without notion_token: what happened, the entity's id and the workspace; no request", async () => {
    const page = await post("page_created", { config: {} });
    expect(page).toEqual({
      message: {
        topic: "Notion pages",
        body: "Someone created page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
      },
      calls: [],
    });
    expect((await post("page_content_updated", { config: { notion_token: " " } })).message).toEqual({
      topic: "Notion pages",
      body: "2 people edited page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
    expect((await post("comment_created", { config: {} })).message).toEqual({
      topic: "Notion pages",
      body: "Someone commented on page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
    expect((await post("database_schema_updated", { config: {} })).message).toEqual({
      topic: "Notion databases",
      body:
        "Someone changed the schema of database `2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e` in Acme Labs:\n" +
        "* added **Launch date**\n* changed **Blurb**\n* removed **Notes**",
    });
  });

  it("every lookup failing (a revoked token): the same message as without a token", async () => {
    const { message, calls } = await post("comment_created", { fail: () => true });
    expect(message).toEqual({
      topic: "Notion pages",
      body: "Someone commented on page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
    expect(calls).toHaveLength(3);
  });

  it("a page not shared with the integration: the author's name, the page's id", async () => {
    const { message } = await post("page_created", { fail: (url) => url.includes("/v1/pages/") });
    expect(message).toEqual({
      topic: "Notion pages",
      body: "Ann Lee created page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
  });

  it("authors: three looked up, those not found counted with the rest", async () => {
    const payload = {
      ...payloadOf("page_content_updated"),
      authors: [
        { id: "6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d", type: "person" },
        { id: "4d5e6f7a-8b9c-4d0e-8f1a-2b3c4d5e6f7a", type: "person" },
        { id: "9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d", type: "person" },
        { id: "8e9f0a1b-2c3d-4e5f-a6b7-c8d9e0f1a2b3", type: "bot" },
      ],
    };
    const { message, calls } = await post("page_content_updated", {
      payload,
      fail: (url) => url.endsWith("/4d5e6f7a-8b9c-4d0e-8f1a-2b3c4d5e6f7a"),
    });
    expect(message).toEqual({
      topic: "Q3 plan",
      body: `Ann Lee, Bo Chen and 2 others edited page ${PAGE} in Acme Labs.`,
    });
    expect(calls).toHaveLength(4);
  });

  it("an answer of another shape (a page without properties) leaves the page to its id", async () => {
    const outcome = await dispatchWebhookAsync(notion, {
      ...fixtureRequest(notion, dir, "page_moved"),
      botConfig: () => ({ notion_token: TOKEN }),
      fetchJson: (url) =>
        Promise.resolve(
          url.includes("/v1/pages/") ? { object: "page", id: "x" } : { object: "user", name: "Ann Lee" },
        ),
    });
    expect(onlyMessage(outcome)).toEqual({
      topic: "Notion pages",
      body: "Ann Lee moved page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
  });

  it("a page whose title is blank is 'Untitled', as Notion shows it; a title on several lines, one", async () => {
    const withTitle = (plain: string[]) =>
      dispatchWebhookAsync(notion, {
        ...fixtureRequest(notion, dir, "page_moved"),
        botConfig: () => ({ notion_token: TOKEN }),
        fetchJson: (url) =>
          Promise.resolve(
            url.includes("/v1/pages/")
              ? {
                  object: "page",
                  url: "https://www.notion.so/1a2b3c4d5e6f4a7b8c9d0e1f2a3b4c5d",
                  properties: {
                    Name: { id: "title", type: "title", title: plain.map((t) => ({ plain_text: t })) },
                  },
                }
              : { object: "user", name: "Ann Lee" },
          ),
      });
    expect(onlyMessage(await withTitle([" "]))).toEqual({
      topic: "Untitled",
      body: "Ann Lee moved page [Untitled](https://www.notion.so/1a2b3c4d5e6f4a7b8c9d0e1f2a3b4c5d) in Acme Labs.",
    });
    expect(onlyMessage(await withTitle(["Plan [draft]\n", "  v2"]))).toEqual({
      topic: "Plan [draft] v2",
      body: "Ann Lee moved page [Plan \\[draft\\] v2](https://www.notion.so/1a2b3c4d5e6f4a7b8c9d0e1f2a3b4c5d) in Acme Labs.",
    });
  });

  it("a payload without workspace_name leaves the workspace out", async () => {
    const payload = payloadOf("page_moved");
    delete payload["workspace_name"];
    expect((await post("page_moved", { payload, config: {} })).message).toEqual({
      topic: "Notion pages",
      body: "Someone moved page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d`.",
    });
  });

  it("an event type Notion adds later is answered as unsupported", async () => {
    const payload = { ...payloadOf("page_created"), type: "view.created" };
    await expect(post("page_created", { payload })).rejects.toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
    });
  });
});

// Computed outside this code: printf '%s' BODY | openssl dgst -sha256 -hmac secret_abc
describeSignature(notion, {
  title: "X-Notion-Signature (HMAC-SHA256 of the body, keyed with the verification token)",
  header: "x-notion-signature",
  secret: "secret_abc",
  body: '{"type":"page.created","entity":{"id":"1","type":"page"}}',
  signature: "sha256=a064af261f4b9c11329c598fc0160abb0b2acd451269a9719602832fbe68908e",
  rejects: ["a064af261f4b9c11329c598fc0160abb0b2acd451269a9719602832fbe68908e", undefined],
});
