/**
 * Custom emoji through the official Python client's requests (test/clients/python-client-wire.ts
 * sends them as zulip.Client 0.9.0 does: the file as a multipart part named by its path, with no
 * Content-Type of its own, as python-requests writes it).
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { ZulipClient } from "../clients/python-client-wire.js";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe("zulip.Client custom emoji methods", () => {
  it("upload_custom_emoji, get_realm_emoji and delete_custom_emoji", async () => {
    const { hamlet } = server.users;
    const c = await ZulipClient.connect({ site: server.url, email: hamlet.email, apiKey: hamlet.apiKey });
    const image = await sharp({ create: { width: 32, height: 32, channels: 4, background: "#336699" } })
      .webp()
      .toBuffer();
    expect(await c.upload_custom_emoji("blue_square", { name: "/tmp/blue.webp", content: image })).toEqual({
      result: "success",
      msg: "",
    });
    const listed = await c.get_realm_emoji();
    expect(listed).toEqual({
      result: "success",
      msg: "",
      emoji: {
        "1": {
          id: "1",
          name: "blue_square",
          source_url: expect.stringMatching(/^\/user_avatars\/1\/emoji\/images\/[0-9a-f]{8}\.webp$/),
          deactivated: false,
          author_id: hamlet.id,
          still_url: null,
        },
      },
    });
    const url = (listed["emoji"] as Record<string, { source_url: string }>)["1"]!.source_url;
    const served = await fetch(`${server.url}${url}`);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 64, 64]);
    expect(await c.delete_custom_emoji("blue_square")).toEqual({ result: "success", msg: "" });
    expect(await c.delete_custom_emoji("blue_square")).toEqual({
      result: "error",
      msg: "Emoji 'blue_square' does not exist",
      code: "BAD_REQUEST",
    });
  });
});
