/**
 * Notion's webhook over HTTP: the bot's `notion_token` and `notion_api_url` (its config), a fake
 * Notion API on 127.0.0.1 that the server reaches through its egress policy (loopback allowed, as
 * an operator would with --outgoing-webhook-allow), and the worded message in the stream.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const TOKEN = "ntn_fake_5d1c0f2e9a";
const SECRET = "secret_notion_verification_token";
const fixture = (name: string): string =>
  fs.readFileSync(new URL(`../../integrations/notion/fixtures/${name}`, import.meta.url), "utf8");

/** What the fake API was asked. */
const asked: { url: string; authorization: string | undefined; version: string | undefined }[] = [];
/** The fake API's status for every request (200: the recorded answers; 299: HTML with a 200). */
let status = 200;

const answers = new Map([
  [
    "/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
    "notion-api/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d.json",
  ],
  [
    "/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
    "notion-api/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d.json",
  ],
]);

const fakeNotion = http.createServer((req, res) => {
  asked.push({
    url: req.url ?? "",
    authorization: req.headers["authorization"],
    version: req.headers["notion-version"] as string | undefined,
  });
  const file = answers.get(req.url ?? "");
  if (status === 299) {
    // A proxy's error page: 2xx, but not JSON.
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Bad gateway</body></html>");
    return;
  }
  if (status !== 200 || file === undefined) {
    res.writeHead(status === 200 ? 404 : status, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ object: "error", status, code: "unauthorized", message: "API token is invalid." }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(fixture(file));
});

let t: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => fakeNotion.listen(0, "127.0.0.1", resolve));
  const { port } = fakeNotion.address() as AddressInfo;
  t = await startTestServer({ allowLoopback: true });
  const sub = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: {
      subscriptions: [{ name: "notion" }],
      principals: [t.users.webhookBot.email, t.users.iago.email],
    },
  });
  expect(sub.status).toBe(200);
  const patch = await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
    as: t.users.iago,
    params: {
      config_data: JSON.stringify({
        notion_token: TOKEN,
        notion_api_url: `http://127.0.0.1:${port}`,
        webhook_secret: SECRET,
      }),
    },
  });
  expect(patch.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => fakeNotion.close(() => resolve()));
});
beforeEach(() => {
  asked.length = 0;
  status = 200;
});

/** Delivers the page.created fixture signed as Notion signs it, and reads the newest message. */
async function deliverPageCreated(): Promise<{ status: number; subject: string; content: string }> {
  const body = fixture("page_created.json");
  const signature = `sha256=${crypto.createHmac("sha256", SECRET).update(body).digest("hex")}`;
  const res = await fetch(
    `${t.url}/api/v1/external/notion?api_key=${t.users.webhookBot.apiKey}&stream=notion`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-notion-signature": signature },
      body,
    },
  );
  const messages = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false },
  });
  const [msg] = messages.body.messages as { subject: string; content: string }[];
  return { status: res.status, subject: msg?.subject ?? "", content: msg?.content ?? "" };
}

describe("POST /api/v1/external/notion with the bot's notion_token", () => {
  it("posts the page's title, link and author as Notion's API gives them", async () => {
    expect(await deliverPageCreated()).toEqual({
      status: 200,
      subject: "Q3 plan",
      content:
        "Ann Lee created page [Q3 plan](https://www.notion.so/Q3-plan-1a2b3c4d5e6f4a7b8c9d0e1f2a3b4c5d) in Acme Labs.",
    });
    expect(asked.sort((a, b) => a.url.localeCompare(b.url))).toEqual([
      {
        url: "/v1/pages/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        authorization: `Bearer ${TOKEN}`,
        version: "2025-09-03",
      },
      {
        url: "/v1/users/6b1f8c2e-3d4a-4f5b-8c6d-7e8f9a0b1c2d",
        authorization: `Bearer ${TOKEN}`,
        version: "2025-09-03",
      },
    ]);
  });

  it("still posts the event, with its ids, when Notion refuses the token", async () => {
    status = 401;
    expect(await deliverPageCreated()).toEqual({
      status: 200,
      subject: "Notion pages",
      content: "Someone created page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
    expect(asked).toHaveLength(2);
  });

  it("still posts the event when the answer is not JSON", async () => {
    status = 299;
    expect(await deliverPageCreated()).toEqual({
      status: 200,
      subject: "Notion pages",
      content: "Someone created page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
    });
    expect(asked).toHaveLength(2);
  });

  it("asks nothing of a private address the egress policy does not allow", async () => {
    const { port } = fakeNotion.address() as AddressInfo;
    const setApiUrl = (url: string) =>
      t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
        as: t.users.iago,
        params: {
          config_data: JSON.stringify({ notion_token: TOKEN, notion_api_url: url, webhook_secret: SECRET }),
        },
      });
    expect((await setApiUrl("http://10.0.0.7:8080")).status).toBe(200);
    try {
      expect(await deliverPageCreated()).toEqual({
        status: 200,
        subject: "Notion pages",
        content: "Someone created page `1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d` in Acme Labs.",
      });
    } finally {
      expect((await setApiUrl(`http://127.0.0.1:${port}`)).status).toBe(200);
    }
    expect(asked).toEqual([]);
  });
});
