/**
 * zulip-js 2.1.0, unmodified, on the methods issue 18 made work: typing, emoji, linkifiers (filters),
 * render, topics and reactions with the full emoji set. Every answer passes through a recording proxy
 * and is checked against Zulip's OpenAPI schemas (afterEach), as in zulip-js.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import zulip from "zulip-js";
import type { Client } from "zulip-js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { startRecordingProxy } from "./recording-proxy.js";
import type { RecordingProxy } from "./recording-proxy.js";

let server: TestServer;
let proxy: RecordingProxy;

beforeEach(async () => {
  server = await startTestServer();
  proxy = await startRecordingProxy(server.url);
});

afterEach(async () => {
  const mismatches = proxy.schemaMismatches();
  await proxy.close();
  await server.close();
  expect(mismatches).toEqual([]);
});

function clientFor(user: TestUser): Promise<Client> {
  return zulip({ realm: proxy.url, username: user.email, apiKey: user.apiKey });
}

describe("zulip-js: typing, emoji, linkifiers", () => {
  it("sends typing notifications to one or several users", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const h = await clientFor(hamlet);
    expect(await h.typing.send({ to: [othello.id], op: "start" })).toEqual({ result: "success", msg: "" });
    expect(await h.typing.send({ to: [othello.id, cordelia.id], op: "stop" })).toEqual({
      result: "success",
      msg: "",
    });
  });

  it("lists the realm's custom emoji (none) and linkifiers in the legacy form", async () => {
    const { iago, hamlet } = server.users;
    await server.api.post("/api/v1/realm/filters", {
      as: iago,
      params: { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/issues/{id}" },
    });
    const h = await clientFor(hamlet);
    expect(await h.emojis.retrieve()).toEqual({ result: "success", msg: "", emoji: {} });
    expect(await h.filters.retrieve()).toEqual({
      result: "success",
      msg: "",
      filters: [["#(?P<id>[0-9]+)", "https://example.com/issues/{id}", 1]],
    });
  });

  it("lists an uploaded custom emoji and reacts with it (realm_emoji)", async () => {
    const { hamlet } = server.users;
    // zulip-js has no upload method: the emoji is uploaded as the Python client does (multipart;
    // written by hand, since zulip-js replaces the global FormData).
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00ff00" } })
      .png()
      .toBuffer();
    const boundary = "emoji-boundary";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="tick.png"\r\n` +
          "Content-Type: image/png\r\n\r\n",
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await server.api.post("/api/v1/realm/emoji/green_tick", {
      as: hamlet,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(uploaded.body).toEqual({ result: "success", msg: "" });
    const h = await clientFor(hamlet);
    const listed = await h.emojis.retrieve();
    expect(listed).toEqual({
      result: "success",
      msg: "",
      emoji: {
        "1": {
          id: "1",
          name: "green_tick",
          source_url: expect.stringMatching(/^\/user_avatars\/1\/emoji\/images\/[0-9a-f]{8}\.png$/),
          deactivated: false,
          author_id: hamlet.id,
          still_url: null,
        },
      },
    });
    const sent = await h.messages.send({ to: [hamlet.id], type: "private", content: "done" });
    const id = sent["id"] as number;
    expect(await h.reactions.add({ message_id: id, emoji_name: "green_tick" })).toEqual({
      result: "success",
      msg: "",
    });
    const fetched = await h.messages.getById({ message_id: id });
    expect(fetched["message"]["reactions"]).toEqual([
      { emoji_name: "green_tick", emoji_code: "1", reaction_type: "realm_emoji", user_id: hamlet.id },
    ]);
  });

  it("reacts with an emoji of the full set", async () => {
    const { hamlet } = server.users;
    const h = await clientFor(hamlet);
    const sent = await h.messages.send({ to: [hamlet.id], type: "private", content: "launch" });
    const id = sent["id"] as number;
    expect(await h.reactions.add({ message_id: id, emoji_name: "rocket" })).toEqual({
      result: "success",
      msg: "",
    });
    const fetched = await h.messages.getById({ message_id: id });
    expect(fetched["message"]["reactions"]).toEqual([
      expect.objectContaining({ emoji_name: "rocket", emoji_code: "1f680", reaction_type: "unicode_emoji" }),
    ]);
  });

  it("renders Markdown with the full emoji set, and lists a stream's topics", async () => {
    const { hamlet } = server.users;
    const h = await clientFor(hamlet);
    expect(await h.messages.render({ content: "**Go** :tada:" })).toEqual({
      result: "success",
      msg: "",
      rendered:
        '<p><strong>Go</strong> <span aria-label="tada" class="emoji emoji-1f389" role="img" title="tada">:tada:</span></p>',
    });
    await h.users.me.subscriptions.add({ subscriptions: [{ name: "Denmark" }] });
    const streamId = (await h.streams.getStreamId("Denmark"))["stream_id"] as number;
    await h.messages.send({ to: "Denmark", type: "stream", topic: "castle", content: "hi" });
    const topics = await h.streams.topics.retrieve({ stream_id: streamId });
    expect(topics).toEqual({
      result: "success",
      msg: "",
      topics: [{ name: "castle", max_id: expect.any(Number) }],
    });
  });
});
