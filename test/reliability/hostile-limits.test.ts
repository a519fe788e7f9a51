/**
 * Issue 23, findings 3, 5 and 6 (resource limits): what one member, admin or anonymous client can
 * make the server hold (event-loop time, memory, queues, storage). Each `describe` is named after
 * its finding and failed on the code before its fix. Real listening servers; no test times anything:
 * "the server keeps answering" is a `/health` request that must answer while the hostile request runs.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import http from "node:http";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { LinkifiersRepo } from "../../src/store/linkifiers-repo.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// Real servers on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const EMOJI_A = '<span aria-label="a" class="emoji emoji-1f170" role="img" title="a">:a:</span>';

/** Runs `hostile` while `/health` is asked again and again; every answer must be a 200. */
async function healthWhile<T>(hostile: Promise<T>): Promise<T> {
  let done = false;
  const settled = hostile.finally(() => {
    done = true;
  });
  let answers = 0;
  while (!done || answers === 0) {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    answers += 1;
  }
  return settled;
}

describe("finding 3: one render freezes everyone", () => {
  it("renders content over 10,000 characters truncated as a send would store it", async () => {
    const res = await server.api.post("/api/v1/messages/render", {
      as: server.users.polonius,
      params: { content: ":a:".repeat(100_000) },
    });
    // 9,980 characters kept (3,326 `:a:` and `:a`), then Zulip's notice.
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        rendered: `<p>${EMOJI_A.repeat(3326)}:a<br>\n[message truncated]</p>`,
      },
    });
  });

  it("stores a sent message of 10,001 characters truncated", async () => {
    const { hamlet } = server.users;
    const sent = await server.api.post("/api/v1/messages", {
      as: hamlet,
      params: { type: "private", to: [hamlet.id], content: "x".repeat(10_001) },
    });
    expect(sent.status).toBe(200);
    const raw = await server.api.get(`/api/v1/messages/${sent.body.id}`, { as: hamlet });
    expect(raw.body.raw_content).toBe("x".repeat(9980) + "\n[message truncated]");
  });

  const worst: Record<string, string> = {
    emoji: ":a:",
    "unclosed mentions": "@**a ",
    "unclosed stream links": "#**a ",
    "unclosed links": "[a](",
    "image brackets": "![",
    "nested emphasis": "***a",
    "open brackets": "[",
    "table rows": "|a\n",
    backslashes: "\\",
  };
  it.each(Object.entries(worst))(
    "renders 10,000 characters of %s while /health answers",
    async (_name, unit) => {
      const content = unit.repeat(Math.ceil(10_000 / unit.length)).slice(0, 10_000);
      const res = await healthWhile(
        server.api.post("/api/v1/messages/render", { as: server.users.hamlet, params: { content } }),
      );
      expect(res.status).toBe(200);
    },
  );
});

describe("finding 5: a linkifier pattern that backtracks freezes the server", () => {
  const addLinkifier = (pattern: string) =>
    server.api.post("/api/v1/realm/filters", {
      as: server.users.iago,
      params: { pattern, url_template: "https://example.com/{id}" },
    });

  it("matches a nested-quantifier pattern in linear time while /health answers", async () => {
    // A backtracking engine needs about 2^50 steps to find that this text does not match.
    expect((await addLinkifier("(?P<id>(a+)+)b")).status).toBe(200);
    const res = await healthWhile(
      server.api.post("/api/v1/messages/render", {
        as: server.users.hamlet,
        params: { content: "a".repeat(50) + "! then ab" },
      }),
    );
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      rendered: `<p>${"a".repeat(50)}! then <a href="https://example.com/a" title="https://example.com/a">ab</a></p>`,
    });
  });

  it("links at most 500 matches of a message, each search bounded, while /health answers", async () => {
    // With RE2JS alone, each match of this pattern scanned the whole rest of the text: quadratic.
    expect((await addLinkifier("(?P<id>a.*b|a)")).status).toBe(200);
    const res = await healthWhile(
      server.api.post("/api/v1/messages/render", {
        as: server.users.hamlet,
        params: { content: "a ".repeat(5000) },
      }),
    );
    const link = '<a href="https://example.com/a" title="https://example.com/a">a</a>';
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      rendered: `<p>${(link + " ").repeat(500)}${"a ".repeat(4499)}a</p>`,
    });
  });

  it("refuses patterns a linear-time engine cannot run, as Zulip's RE2 does", async () => {
    const refused = async (pattern: string) => {
      const res = await addLinkifier(pattern);
      return { status: res.status, body: res.body };
    };
    expect(await refused("(?P<id>a)\\1")).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Bad regular expression: invalid escape sequence: \\1",
        code: "BAD_REQUEST",
      },
    });
    expect(await refused("(?P<id>x(?=y))")).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Bad regular expression: invalid or unsupported Perl syntax: (?=",
        code: "BAD_REQUEST",
      },
    });
  });

  it("skips a stored pattern that is refused now, and applies the others", async () => {
    const repo = new LinkifiersRepo(server.running.db);
    await repo.insert("(?P<id>(a|a)*)\\1b", "https://example.com/{id}");
    await repo.insert("#(?P<id>[0-9]+)", "https://example.com/{id}");
    const res = await server.api.post("/api/v1/messages/render", {
      as: server.users.hamlet,
      params: { content: "aaaa #12" },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      rendered: '<p>aaaa <a href="https://example.com/12" title="https://example.com/12">#12</a></p>',
    });
  });
});

describe("finding 5: a template render holds the event loop", () => {
  const preview = (template_body: string) =>
    server.api.post("/api/v1/integrations/template/preview", {
      as: server.users.hamlet,
      params: { template_body, payload: { n: 1 } },
    });

  it("refuses a template over its allocation budget before it runs long, while /health answers", async () => {
    const res = await healthWhile(preview("{% for i in (1..200000) %}{% endfor %}done"));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Error in template_body at line 1, column 1: memory alloc limit exceeded",
        code: "BAD_REQUEST",
        template: "template_body",
        line: 1,
        column: 1,
      },
    });
  });

  it("stops a template that runs past its time limit with a clear error, while /health answers", async () => {
    // 999 × 999 iterations, each within the allocation budget: only the time limit stops it.
    const loops = "{% for a in (1..999) %}{% for b in (1..999) %}{{ a }}{% endfor %}{% endfor %}";
    const res = await healthWhile(preview(loops));
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^Error in template_body.*: template render limit exceeded$/);
  });
});

describe("finding 5: no cap on event queues per user", () => {
  it("keeps 50 queues per user by default, discarding the least recently used one", async () => {
    await server.close();
    const clock = new ManualClock(Date.now());
    server = await startTestServer({ clock });
    const { hamlet, othello } = server.users;
    const register = async (as: typeof hamlet): Promise<string> => {
      clock.advance(1000);
      const res = await server.api.post("/api/v1/register", { as, params: { event_types: ["alert_words"] } });
      expect(res.status).toBe(200);
      return res.body.queue_id as string;
    };
    const poll = (as: typeof hamlet, queueId: string) =>
      server.api.get("/api/v1/events", {
        as,
        params: { queue_id: queueId, last_event_id: -1, dont_block: true },
      });
    const queues: string[] = [];
    for (let i = 0; i < 50; i++) queues.push(await register(hamlet));
    const othellos = await register(othello);
    // The first queue is used again, so the second becomes the least recently used.
    clock.advance(1000);
    expect((await poll(hamlet, queues[0]!)).status).toBe(200);
    const newest = await register(hamlet);

    const collected = await poll(hamlet, queues[1]!);
    expect({ status: collected.status, body: collected.body }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: `Bad event queue id: ${queues[1]}`,
        code: "BAD_EVENT_QUEUE_ID",
        queue_id: queues[1],
      },
    });
    for (const id of [queues[0]!, ...queues.slice(2), newest])
      expect((await poll(hamlet, id)).status).toBe(200);
    // Another user's queues are not counted.
    expect((await poll(othello, othellos)).status).toBe(200);
  });
});

/** Sends a request's headers and the first KB of a body announced as 24 MB, and never the rest. */
function slowUpload(
  path: string,
  headers: Record<string, string>,
): { response: Promise<{ status: number; body: unknown }>; abort: () => void } {
  const url = new URL(path, server.url);
  const req = http.request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(24 * 1024 * 1024),
      ...headers,
    },
  });
  const response = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
    req.on("error", reject);
  });
  // Aborting a held request rejects its promise: that is expected, not a failure.
  response.catch(() => undefined);
  req.write("content=" + "x".repeat(1024));
  return { response, abort: () => req.destroy() };
}

describe("finding 5: request bodies are read before authentication", () => {
  it("answers wrong Basic credentials 401 without waiting for the body", async () => {
    const { hamlet } = server.users;
    const wrong = "Basic " + Buffer.from(`${hamlet.email}:${"A".repeat(32)}`).toString("base64");
    const upload = slowUpload("/api/v1/messages", { authorization: wrong });
    try {
      expect(await upload.response).toEqual({
        status: 401,
        body: { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" },
      });
    } finally {
      upload.abort();
    }
  });

  it("answers a webhook's wrong api_key without waiting for the body", async () => {
    const upload = slowUpload(`/api/v1/external/helloworld?api_key=${"A".repeat(32)}&stream=general`, {});
    try {
      expect(await upload.response).toEqual({
        status: 401,
        body: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" },
      });
    } finally {
      upload.abort();
    }
  });

  it("counts requests whose Authorization is not verified in the per-IP cap", async () => {
    await server.close();
    server = await startTestServer({
      config: { limits: { ...defaultConfig({}).limits, maxPublicRequestsPerIp: 2 } },
    });
    const bogus = { authorization: "Bearer not-a-zulip-credential" };
    const held = [
      slowUpload("/api/v1/external/helloworld", bogus),
      slowUpload("/api/v1/external/helloworld", bogus),
    ];
    try {
      // The third is refused while the first two hold their places (they wait for bodies never sent).
      let third: { status: number; body: unknown } | undefined;
      for (let i = 0; i < 200 && third?.status !== 429; i++) {
        const res = await fetch(`${server.url}/api/v1/external/helloworld`, {
          method: "POST",
          headers: bogus,
          body: "{}",
        });
        third = { status: res.status, body: await res.json() };
      }
      expect(third?.status).toBe(429);
    } finally {
      for (const h of held) h.abort();
    }
  });
});

describe("finding 6: 5,000 nested arrays to the json integration answer 500", () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("refuses a webhook body nested deeper than 1,024 levels with a clear 400", async () => {
    const res = await fetch(
      `${server.url}/api/v1/external/json?api_key=${server.users.webhookBot.apiKey}&stream=general`,
      { method: "POST", headers: { "content-type": "application/json" }, body: deep(5000) },
    );
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed JSON: nested deeper than 1024 levels", code: "INVALID_JSON" },
    });
  });

  it("refuses a JSON argument nested deeper than 1,024 levels", async () => {
    const res = await server.api.post("/api/v1/integrations/template/preview", {
      as: server.users.hamlet,
      params: { template_body: "x", payload: deep(5000) },
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: 'Argument "payload" is nested deeper than 1024 levels.',
        code: "BAD_REQUEST",
      },
    });
  });

  it("still takes JSON nested 1,024 levels deep", async () => {
    const res = await server.api.post("/api/v1/integrations/template/preview", {
      as: server.users.hamlet,
      params: { template_body: "ok", payload: deep(1024) },
    });
    expect(res.body).toEqual({ result: "success", msg: "", topic: "", body: "ok" });
  });
});

describe("finding 6: no cap on upload storage per user", () => {
  const upload = async (as: typeof server.users.hamlet, name: string, bytes: number) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes).fill(0x61)]), name);
    const res = await fetch(`${server.url}/api/v1/user_uploads`, {
      method: "POST",
      headers: { authorization: "Basic " + Buffer.from(`${as.email}:${as.apiKey}`).toString("base64") },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("refuses an upload that would take a user past --max-upload-storage-per-user", async () => {
    await server.close();
    server = await startTestServer({ config: { maxUploadStoragePerUserMib: 1 } });
    const { hamlet, othello } = server.users;
    expect((await upload(hamlet, "a.txt", 600 * 1024)).status).toBe(200);
    expect(await upload(hamlet, "b.txt", 600 * 1024)).toEqual({
      status: 400,
      body: { result: "error", msg: "Upload would exceed your storage quota of 1 MiB.", code: "BAD_REQUEST" },
    });
    // What fits still fits, and other users have their own quota.
    expect((await upload(hamlet, "c.txt", 400 * 1024)).status).toBe(200);
    expect((await upload(othello, "d.txt", 600 * 1024)).status).toBe(200);
    const list = await server.api.get("/api/v1/attachments", { as: hamlet });
    expect((list.body.attachments as { name: string }[]).map((a) => a.name).sort()).toEqual([
      "a.txt",
      "c.txt",
    ]);
  });
});

describe("alert words: one member's list slowed every message sent to them", () => {
  // Each message was matched against every alert word with a regular expression compiled for it:
  // 1,000 words cost a message 460 ms when they were compiled, 10,000 words 6 s (the event loop held).
  // Words are now matched in one pass (src/domain/alert-words/alert-word-matcher.ts), and a user
  // holds at most 1,000 of them.
  const tooMany = { result: "error", msg: "Too many alert words (limit: 1000)", code: "BAD_REQUEST" };

  it("holds at most 1,000 alert words a user: a request that would pass the limit adds none", async () => {
    const { api, users } = server;
    const add = (words: string[]) =>
      api.post("/api/v1/users/me/alert_words", { as: users.hamlet, params: { alert_words: words } });
    const first = Array.from({ length: 999 }, (_, i) => `word${i}`);
    expect((await add(first)).body).toEqual({ result: "success", msg: "", alert_words: first });
    const over = await add(["one more", "and another"]);
    expect(over.status).toBe(400);
    expect(over.body).toEqual(tooMany);
    // Words the user has already do not count again.
    expect((await add(["WORD5", "one more"])).body).toEqual({
      result: "success",
      msg: "",
      alert_words: [...first, "one more"],
    });
    expect((await add(["x"])).body).toEqual(tooMany);
  });

  it("stays within the limit when several requests near it add words at the same time", async () => {
    const { api, users } = server;
    const add = (words: string[]) =>
      api.post("/api/v1/users/me/alert_words", { as: users.hamlet, params: { alert_words: words } });
    await add(Array.from({ length: 996 }, (_, i) => `word${i}`));
    // Each request alone fits (996 + 2); all of them would make 1,006.
    const answers = await Promise.all([1, 2, 3, 4, 5].map((k) => add([`a${k}`, `b${k}`])));
    // Each is answered: added, or refused when the others' words came first.
    for (const answer of answers) {
      if (answer.status !== 200) expect(answer.body).toEqual(tooMany);
    }
    const listed = await api.get("/api/v1/users/me/alert_words", { as: users.hamlet });
    expect((listed.body.alert_words as string[]).length).toBe(1000);
  });
});
