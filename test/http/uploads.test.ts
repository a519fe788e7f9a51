import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { assertZulipSchema } from "../helpers/openapi.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { createStream, recordEvents, send, T0 } from "./message-helpers.js";
import { startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: TestServer;

beforeEach(async () => {
  server = await startMessagingServer();
});
afterEach(async () => {
  await server.close();
});

const auth = (u: TestUser) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")}`;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2b6e6f50000000049454e44ae426082",
  "hex",
);

async function upload(
  as: TestUser,
  files: { name: string; bytes: Buffer }[],
  s: TestServer = server,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const f of files) form.append(f.name.replace(/\W/g, "_"), new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await fetch(`${s.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: { authorization: auth(as) },
    body: form,
  });
  const body = (await res.json()) as Record<string, unknown>;
  assertZulipSchema("POST", "/api/v1/user_uploads", res.status, body);
  return { status: res.status, body };
}

async function download(as: TestUser | undefined, url: string): Promise<Response> {
  return fetch(`${server.url}${url}`, as === undefined ? {} : { headers: { authorization: auth(as) } });
}

const URL_RE = (name: string) => new RegExp(`^/user_uploads/1/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/${name}$`);

describe("POST /api/v1/user_uploads", () => {
  it("stores a file and answers its URL and name", async () => {
    const { status, body } = await upload(server.users.hamlet, [
      { name: "notes from the castle.txt", bytes: Buffer.from("to be or not to be") },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual({
      result: "success",
      msg: "",
      uri: expect.stringMatching(URL_RE("notes-from-the-castle.txt")),
      url: body["uri"],
      filename: "notes-from-the-castle.txt",
    });
    const res = await download(server.users.hamlet, body["url"] as string);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("to be or not to be");
    expect([
      res.headers.get("content-type"),
      res.headers.get("content-disposition"),
      res.headers.get("x-content-type-options"),
    ]).toEqual([
      "text/plain; charset=utf-8",
      "attachment; filename=\"notes-from-the-castle.txt\"; filename*=UTF-8''notes-from-the-castle.txt",
      "nosniff",
    ]);
  });

  it("sniffs the type from the bytes: images inline, markup as a plain-text download", async () => {
    const png = await upload(server.users.hamlet, [{ name: "pixel.txt", bytes: PNG }]);
    let res = await download(server.users.hamlet, png.body["url"] as string);
    expect([res.status, res.headers.get("content-type"), res.headers.get("content-disposition")]).toEqual([
      200,
      "image/png",
      "inline; filename=\"pixel.txt\"; filename*=UTF-8''pixel.txt",
    ]);
    const html = await upload(server.users.hamlet, [
      { name: "page.png", bytes: Buffer.from("<html><script>alert(1)</script></html>") },
    ]);
    res = await download(server.users.hamlet, html.body["url"] as string);
    expect([res.status, res.headers.get("content-type"), res.headers.get("content-disposition")]).toEqual([
      200,
      "text/plain; charset=utf-8",
      "attachment; filename=\"page.png\"; filename*=UTF-8''page.png",
    ]);
  });

  it("refuses a request without a file, with two files, and a file over the limit", async () => {
    const none = await upload(server.users.hamlet, []);
    const form = new FormData();
    form.append("a", "not a file");
    const fieldsOnly = await fetch(`${server.url}/api/v1/user_uploads`, {
      method: "POST",
      headers: { authorization: auth(server.users.hamlet) },
      body: form,
    });
    const two = await upload(server.users.hamlet, [
      { name: "a.txt", bytes: Buffer.from("a") },
      { name: "b.txt", bytes: Buffer.from("b") },
    ]);
    expect([
      none.status,
      none.body,
      fieldsOnly.status,
      await fieldsOnly.json(),
      two.status,
      two.body,
    ]).toEqual([
      400,
      { result: "error", msg: "You must specify a file to upload", code: "BAD_REQUEST" },
      400,
      { result: "error", msg: "You must specify a file to upload", code: "BAD_REQUEST" },
      400,
      { result: "error", msg: "You may only upload one file at a time", code: "BAD_REQUEST" },
    ]);
    const small = await startTestServer({ config: { maxFileUploadMib: 1 } });
    try {
      const big = await upload(
        small.users.hamlet,
        [{ name: "big.bin", bytes: Buffer.alloc(1024 * 1024 + 1) }],
        small,
      );
      expect([big.status, big.body]).toEqual([
        400,
        {
          result: "error",
          msg: "Uploaded file is larger than the allowed limit of 1 MiB",
          code: "BAD_REQUEST",
        },
      ]);
      const fits = await upload(
        small.users.hamlet,
        [{ name: "fits.bin", bytes: Buffer.alloc(1024 * 1024) }],
        small,
      );
      expect(fits.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it("writes files 0600 in the uploads folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-test-"));
    const s = await startTestServer({ config: { uploadsDir: path.join(dir, "uploads") } });
    try {
      const { status } = await upload(s.users.hamlet, [{ name: "secret.txt", bytes: Buffer.from("x") }], s);
      expect(status).toBe(200);
      const files = fs.readdirSync(path.join(dir, "uploads"));
      expect(files.length).toBe(1);
      expect([
        fs.statSync(path.join(dir, "uploads")).mode & 0o777,
        fs.statSync(path.join(dir, "uploads", files[0]!)).mode & 0o777,
      ]).toEqual([0o700, 0o600]);
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GET /user_uploads/… (who may see an upload)", () => {
  it("serves a file only to its uploader until a message links it, then to who may read that message", async () => {
    const { hamlet, othello, cordelia, polonius } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const { body } = await upload(hamlet, [{ name: "plan.txt", bytes: Buffer.from("the plan") }]);
    const url = body["url"] as string;
    const statuses = async () =>
      Promise.all([hamlet, othello, cordelia, polonius].map(async (u) => (await download(u, url)).status));
    expect(await statuses()).toEqual([200, 404, 404, 404]);
    const notFound = await download(othello, url);
    expect(await notFound.json()).toEqual({ result: "error", msg: "File not found", code: "BAD_REQUEST" });
    // A link by someone else does not share it.
    await send(server, othello, { type: "stream", to: "Denmark", topic: "t", content: `[plan](${url})` });
    expect(await statuses()).toEqual([200, 404, 404, 404]);
    // Hamlet links it in a public stream: subscribers and other members (public history) may see it,
    // the guest who is not subscribed may not.
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "t", content: `[plan](${url})` });
    expect(await statuses()).toEqual([200, 200, 200, 404]);
  });

  it("keeps files linked in a private stream or a private message to those who may read them", async () => {
    const { hamlet, othello, cordelia, iago } = server.users;
    await createStream(server, "secret", [hamlet, othello], { inviteOnly: true });
    const a = (await upload(hamlet, [{ name: "a.txt", bytes: Buffer.from("a") }])).body["url"] as string;
    const b = (await upload(hamlet, [{ name: "b.txt", bytes: Buffer.from("b") }])).body["url"] as string;
    await send(server, hamlet, { type: "stream", to: "secret", topic: "t", content: `[a](${a})` });
    await send(server, hamlet, {
      type: "private",
      to: JSON.stringify([cordelia.email]),
      content: `[b](${b})`,
    });
    const statuses = async (url: string) =>
      Promise.all([othello, cordelia, iago].map(async (u) => (await download(u, url)).status));
    expect(await statuses(a)).toEqual([200, 404, 404]);
    expect(await statuses(b)).toEqual([404, 200, 404]);
  });

  it("asks for credentials without them, and answers 404 for unknown paths", async () => {
    const { body } = await upload(server.users.hamlet, [{ name: "a.txt", bytes: Buffer.from("a") }]);
    const anonymous = await download(undefined, body["url"] as string);
    expect([anonymous.status, await anonymous.json()]).toEqual([
      401,
      {
        result: "error",
        msg: "Not logged in: API authentication or user session required",
        code: "UNAUTHORIZED",
      },
    ]);
    const unknown = await download(server.users.hamlet, "/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/a.txt");
    expect(unknown.status).toBe(404);
  });
});

describe("GET /api/v1/user_uploads/{realm_id}/{filename} (temporary URLs)", () => {
  it("gives a user who may see the file a URL that works without credentials for 60 seconds", async () => {
    const { hamlet, othello } = server.users;
    const { body } = await upload(hamlet, [{ name: "memo.txt", bytes: Buffer.from("memo") }]);
    const pathId = (body["url"] as string).slice("/user_uploads/".length);
    const res = await server.api.get(`/api/v1/user_uploads/${pathId}`, { as: hamlet });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      url: expect.stringMatching(/^\/user_uploads\/temporary\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\/memo\.txt$/),
    });
    const url = res.body.url as string;
    const file = await download(undefined, url);
    expect([file.status, await file.text()]).toEqual([200, "memo"]);
    const tampered = await download(undefined, url.replace(/\.([A-Za-z0-9_-])/, ".x$1"));
    expect(tampered.status).toBe(404);
    const denied = await server.api.get(`/api/v1/user_uploads/${pathId}`, { as: othello });
    expect([denied.status, denied.body]).toEqual([
      404,
      { result: "error", msg: "File not found", code: "BAD_REQUEST" },
    ]);
    (server as MessagingServer).clock.advance(61_000);
    expect((await download(undefined, url)).status).toBe(404);
  });
});

describe("GET and DELETE /api/v1/attachments", () => {
  it("lists the user's uploads with the messages linking them, and deletes them with events", async () => {
    const { hamlet, othello } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const events = recordEvents(server);
    const { body } = await upload(hamlet, [{ name: "report.txt", bytes: Buffer.from("12345") }]);
    const url = body["url"] as string;
    const pathId = url.slice("/user_uploads/".length);
    const messageId = await send(server, hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: `[report](${url})`,
    });
    const list = await server.api.get("/api/v1/attachments", { as: hamlet });
    const attachment = {
      id: 1,
      name: "report.txt",
      path_id: pathId,
      size: 5,
      create_time: T0 * 1000,
      messages: [{ id: messageId, date_sent: T0 * 1000 }],
    };
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      attachments: [attachment],
      upload_space_used: 5,
    });
    expect((await server.api.get("/api/v1/attachments", { as: othello })).body).toEqual({
      result: "success",
      msg: "",
      attachments: [],
      upload_space_used: 5,
    });

    const other = await server.api.delete("/api/v1/attachments/1", { as: othello });
    expect([other.status, other.body]).toEqual([
      400,
      { result: "error", msg: "Invalid attachment", code: "BAD_REQUEST" },
    ]);
    const unknown = await server.api.delete("/api/v1/attachments/99", { as: hamlet });
    expect(unknown.body).toEqual({ result: "error", msg: "Invalid attachment", code: "BAD_REQUEST" });
    const ok = await server.api.delete("/api/v1/attachments/1", { as: hamlet });
    expect(ok.body).toEqual({ result: "success", msg: "" });
    expect((await download(hamlet, url)).status).toBe(404);

    expect(events.filter((e) => e.event.type === "attachment")).toEqual([
      {
        event: {
          type: "attachment",
          op: "add",
          attachment: { ...attachment, messages: [] },
          upload_space_used: 5,
        },
        recipients: [hamlet.id],
      },
      {
        event: { type: "attachment", op: "update", attachment, upload_space_used: 5 },
        recipients: [hamlet.id],
      },
      {
        event: { type: "attachment", op: "remove", attachment: { id: 1 }, upload_space_used: 0 },
        recipients: [hamlet.id],
      },
    ]);
  });
});
