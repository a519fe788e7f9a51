/**
 * Thumbnails of uploaded images and their previews, as Zulip has them (Zulip 9.0, feature level
 * 273): `server_thumbnail_formats` in POST /register, `/user_uploads/thumbnail/{path}/{format}`
 * made with sharp, and a message linking an uploaded image rendered with Zulip's
 * `message_inline_image` markup. Real listening server; images made with sharp in the test.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { createStream, send, startMessagingServer } from "./message-helpers.js";

let server: TestServer;
beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  await createStream(server, "Denmark", [hamlet, othello]);
});
afterEach(() => server.close());

const auth = (u: TestUser) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")}`;

/** A 1000×800 PNG (a red field). */
const picture = (): Promise<Buffer> =>
  sharp({ create: { width: 1000, height: 800, channels: 3, background: { r: 200, g: 0, b: 0 } } })
    .png()
    .toBuffer();

async function upload(as: TestUser, name: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: { authorization: auth(as) },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

async function rendered(id: number): Promise<string> {
  const res = await server.api.get(`/api/v1/messages/${id}`, { as: server.users.hamlet });
  return (res.body as { message: { content: string } }).message.content;
}

describe("thumbnails of uploaded images", () => {
  it("lists the format it makes in POST /register", async () => {
    const res = await server.api.post("/api/v1/register", {
      as: server.users.hamlet,
      params: { fetch_event_types: JSON.stringify(["realm"]) },
    });
    expect(res.body.server_thumbnail_formats).toEqual([
      { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
    ]);
  });

  it("previews a linked uploaded image as Zulip does, alone or after its paragraph", async () => {
    const url = await upload(server.users.hamlet, "castle.png", await picture());
    const path = url.slice("/user_uploads/".length);
    const preview = (title: string): string =>
      `<div class="message_inline_image"><a href="${url}" title="${title}">` +
      `<img data-original-content-type="image/png" data-original-dimensions="1000x800" ` +
      `src="/user_uploads/thumbnail/${path}/840x560.webp"></a></div>`;
    const alone = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "pictures",
      content: `[castle.png](${url})`,
    });
    expect(await rendered(alone)).toBe(preview("castle.png"));
    const inText = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "pictures",
      content: `The [castle](${url}) at dawn`,
    });
    expect(await rendered(inText)).toBe(
      `<p>The <a href="${url}">castle</a> at dawn</p>\n${preview("castle")}`,
    );
  });

  it("does not preview what is not an uploaded image", async () => {
    const url = await upload(server.users.hamlet, "notes.txt", Buffer.from("to be or not to be"));
    const id = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "files",
      content: `[notes.txt](${url})`,
    });
    expect(await rendered(id)).toBe(`<p><a href="${url}">notes.txt</a></p>`);
  });

  it("serves the thumbnail, fitted inside 840×560, to whoever may see the image", async () => {
    const url = await upload(server.users.hamlet, "castle.png", await picture());
    const path = url.slice("/user_uploads/".length);
    await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "pictures",
      content: `[castle.png](${url})`,
    });
    for (const viewer of [server.users.hamlet, server.users.othello]) {
      const res = await fetch(`${server.url}/user_uploads/thumbnail/${path}/840x560.webp`, {
        headers: { authorization: auth(viewer) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
        format: "webp",
        width: 700,
        height: 560,
      });
    }
  });

  it("answers 404 to an unknown format and to someone who may not see the image", async () => {
    const url = await upload(server.users.hamlet, "castle.png", await picture());
    const path = url.slice("/user_uploads/".length);
    const get = async (as: TestUser, format: string) => {
      const res = await fetch(`${server.url}/user_uploads/thumbnail/${path}/${format}`, {
        headers: { authorization: auth(as) },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await get(server.users.hamlet, "100x100.png")).toEqual({
      status: 404,
      body: { result: "error", msg: "Invalid thumbnail format", code: "BAD_REQUEST" },
    });
    expect(await get(server.users.othello, "840x560.webp")).toEqual({
      status: 404,
      body: { result: "error", msg: "File not found", code: "BAD_REQUEST" },
    });
  });
});
