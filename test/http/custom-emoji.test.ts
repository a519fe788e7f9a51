import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { assertZulipSchema } from "../helpers/openapi.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (owner), hamlet, othello, cordelia (members), polonius (guest).
let server: MessagingServer;
beforeEach(async () => {
  server = await startMessagingServer();
});
afterEach(async () => {
  await server.close();
});

const SUCCESS = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const auth = (u: TestUser) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")}`;

/** A 100×50 red PNG (not square: the stored emoji is cropped to 64×64). */
const png = (): Promise<Buffer> =>
  sharp({ create: { width: 100, height: 50, channels: 4, background: "#ff0000" } })
    .png()
    .toBuffer();

/** A two-frame 80×40 GIF. */
async function animatedGif(): Promise<Buffer> {
  const frame = (colour: string) =>
    sharp({ create: { width: 80, height: 40, channels: 4, background: colour } })
      .png()
      .toBuffer();
  return sharp([await frame("#ff0000"), await frame("#0000ff")], { join: { animated: true } })
    .gif()
    .toBuffer();
}

/** POST /realm/emoji/{name} with the files as multipart parts (as the Python client's upload_custom_emoji). */
async function uploadEmoji(
  as: TestUser,
  name: string,
  files: Buffer[],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  files.forEach((bytes, i) => form.append(`file${i}`, new Blob([new Uint8Array(bytes)]), `img${i}.png`));
  const path = `/api/v1/realm/emoji/${encodeURIComponent(name)}`;
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: auth(as) },
    body: form,
  });
  const body = (await res.json()) as Record<string, unknown>;
  assertZulipSchema("POST", path, res.status, body);
  return { status: res.status, body };
}

async function listEmoji(as: TestUser = server.users.hamlet): Promise<unknown> {
  const res = await server.api.get("/api/v1/realm/emoji", { as });
  expect(res.status).toBe(200);
  return res.body;
}

const FILE_URL = (ext: string) => new RegExp(`^/user_avatars/1/emoji/images/[0-9a-f]{8}\\.${ext}$`);

describe("POST /api/v1/realm/emoji/{emoji_name}", () => {
  it("stores a 64×64 image, lists it, sends realm_emoji with the whole dict, and register has it", async () => {
    const { users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["realm_emoji"] });
    expect(await uploadEmoji(users.hamlet, "green_tick", [await png()])).toEqual({
      status: 200,
      body: SUCCESS,
    });

    const listed = (await listEmoji()) as { emoji: Record<string, { source_url: string }> };
    const sourceUrl = listed.emoji["1"]?.source_url ?? "";
    expect(sourceUrl).toMatch(FILE_URL("png"));
    const entry = {
      id: "1",
      name: "green_tick",
      source_url: sourceUrl,
      deactivated: false,
      author_id: users.hamlet.id,
      still_url: null,
    };
    expect(listed).toEqual({ ...SUCCESS, emoji: { "1": entry } });
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm_emoji", op: "update", realm_emoji: { "1": entry } },
    ]);
    const reg = await registerQueue(server, users.cordelia, { fetch_event_types: ["realm_emoji"] });
    expect(reg.register.realm_emoji).toEqual({ "1": entry });

    // The image is public (rendered messages load it with <img>), resized, typed from its bytes.
    const image = await fetch(`${server.url}${sourceUrl}`);
    expect([
      image.status,
      image.headers.get("content-type"),
      image.headers.get("x-content-type-options"),
    ]).toEqual([200, "image/png", "nosniff"]);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 64, 64]);
  });

  it("keeps an animated image animated and serves its first frame at still_url", async () => {
    const { users } = server;
    expect(await uploadEmoji(users.hamlet, "party parrot ", [await animatedGif()])).toEqual({
      status: 200,
      body: SUCCESS,
    });
    const listed = (await listEmoji()) as {
      emoji: Record<string, { source_url: string; still_url: string }>;
    };
    const { source_url: sourceUrl, still_url: stillUrl } = listed.emoji["1"]!;
    expect(listed).toEqual({
      ...SUCCESS,
      emoji: {
        "1": {
          id: "1",
          name: "party_parrot",
          source_url: expect.stringMatching(FILE_URL("gif")),
          deactivated: false,
          author_id: users.hamlet.id,
          still_url: sourceUrl.replace("/images/", "/images/still/").replace(/\.gif$/, ".png"),
        },
      },
    });
    const gif = await fetch(`${server.url}${sourceUrl}`);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    const gifMeta = await sharp(Buffer.from(await gif.arrayBuffer()), { animated: true }).metadata();
    expect([gifMeta.format, gifMeta.pages, gifMeta.width, gifMeta.pageHeight]).toEqual(["gif", 2, 64, 64]);
    const still = await fetch(`${server.url}${stillUrl}`);
    expect(still.headers.get("content-type")).toBe("image/png");
    const stillMeta = await sharp(Buffer.from(await still.arrayBuffer())).metadata();
    expect([stillMeta.format, stillMeta.pages ?? 1, stillMeta.width, stillMeta.height]).toEqual([
      "png",
      1,
      64,
      64,
    ]);
  });

  it("answers Zulip's errors for names, guests, duplicates, file counts, built-in names, size and bad images", async () => {
    const { users } = server;
    const image = await png();
    const cases: [TestUser, string, Buffer[], string][] = [
      [
        users.hamlet,
        "Green",
        [image],
        "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
      ],
      [
        users.hamlet,
        "tick.mark",
        [image],
        "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
      ],
      [users.hamlet, "tick_", [image], "Emoji names must end with either a letter or digit."],
      [users.hamlet, " ", [image], "Emoji name is missing"],
      [users.polonius, "tick", [image], "Not allowed for guest users"],
      [users.hamlet, "tick", [], "You must upload exactly one file."],
      [users.hamlet, "tick", [image, image], "You must upload exactly one file."],
      [users.hamlet, "rocket", [image], "Only administrators can override built-in emoji."],
      [
        users.hamlet,
        "tick",
        [Buffer.alloc(5 * 1024 * 1024 + 1)],
        "Uploaded file is larger than the allowed limit of 5 MiB",
      ],
      [
        users.hamlet,
        "tick",
        [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")],
        "Invalid image format",
      ],
      [
        users.hamlet,
        "tick",
        [image.subarray(0, 40)],
        "Could not decode image; did you upload an image file?",
      ],
    ];
    for (const [as, name, files, msg] of cases) {
      expect([name, await uploadEmoji(as, name, files)]).toEqual([name, { status: 400, body: error(msg) }]);
    }
    expect(await listEmoji()).toEqual({ ...SUCCESS, emoji: {} });

    // An administrator may override a built-in name; a second active emoji of a name is refused.
    expect((await uploadEmoji(users.iago, "rocket", [image])).body).toEqual(SUCCESS);
    expect(await uploadEmoji(users.hamlet, "rocket", [image])).toEqual({
      status: 400,
      body: error("A custom emoji with this name already exists."),
    });
  });
});

describe("DELETE /api/v1/realm/emoji/{emoji_name}", () => {
  it("deactivates: its author or an administrator only; listed as deactivated; the name is free again", async () => {
    const { api, users } = server;
    await uploadEmoji(users.hamlet, "tick", [await png()]);
    await uploadEmoji(users.othello, "cross", [await png()]);
    const q = await registerQueue(server, users.cordelia, { event_types: ["realm_emoji"] });

    expect((await api.delete("/api/v1/realm/emoji/nope", { as: users.iago })).body).toEqual(
      error("Emoji 'nope' does not exist"),
    );
    const refused = await api.delete("/api/v1/realm/emoji/cross", { as: users.hamlet });
    expect([refused.status, refused.body]).toEqual([
      400,
      error("Must be an organization administrator or emoji author"),
    ]);
    const guest = await api.delete("/api/v1/realm/emoji/cross", { as: users.polonius });
    expect(guest.body).toEqual(error("Must be an organization administrator or emoji author"));

    expect((await api.delete("/api/v1/realm/emoji/tick", { as: users.hamlet })).body).toEqual(SUCCESS);
    expect((await api.delete("/api/v1/realm/emoji/cross", { as: users.iago })).body).toEqual(SUCCESS);
    expect((await api.delete("/api/v1/realm/emoji/tick", { as: users.hamlet })).body).toEqual(
      error("Emoji 'tick' does not exist"),
    );

    const listed = (await listEmoji()) as { emoji: Record<string, { source_url: string }> };
    const deactivated = (id: string, name: string, author: TestUser) => ({
      id,
      name,
      source_url: listed.emoji[id]?.source_url,
      deactivated: true,
      author_id: author.id,
      still_url: null,
    });
    const both = {
      "1": deactivated("1", "tick", users.hamlet),
      "2": deactivated("2", "cross", users.othello),
    };
    expect(listed).toEqual({ ...SUCCESS, emoji: both });
    const events = await drainEvents(q);
    expect(events.map((e) => [e.type, e.op])).toEqual([
      ["realm_emoji", "update"],
      ["realm_emoji", "update"],
    ]);
    expect(events[1]?.realm_emoji).toEqual(both);
    // Old messages keep showing a deactivated emoji's image.
    expect((await fetch(`${server.url}${listed.emoji["1"]?.source_url}`)).status).toBe(200);

    expect((await uploadEmoji(users.cordelia, "tick", [await png()])).body).toEqual(SUCCESS);
    const again = (await listEmoji()) as { emoji: Record<string, { name: string; deactivated: boolean }> };
    expect(Object.values(again.emoji).map((e) => [e.name, e.deactivated])).toEqual([
      ["tick", true],
      ["cross", true],
      ["tick", false],
    ]);
  });
});

describe("custom emoji in messages and reactions", () => {
  async function setUp(): Promise<{ messageId: number; sourceUrl: string }> {
    const { api, users } = server;
    await api.post("/api/v1/users/me/subscriptions", {
      as: users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: [users.hamlet.email, users.othello.email] },
    });
    await uploadEmoji(users.hamlet, "green_tick", [await png()]);
    const listed = (await listEmoji()) as { emoji: Record<string, { source_url: string }> };
    const messageId = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "castle",
      content: "done :green_tick: and :rocket: but not :blue_tick:",
    });
    return { messageId, sourceUrl: listed.emoji["1"]?.source_url ?? "" };
  }

  it("renders :name: as Zulip's <img>, and no longer once the emoji is deactivated", async () => {
    const { api, users } = server;
    const { messageId, sourceUrl } = await setUp();
    const got = await api.get(`/api/v1/messages/${messageId}`, { as: users.othello });
    expect(got.body.message.content).toBe(
      `<p>done <img alt=":green_tick:" class="emoji" src="${sourceUrl}" title="green tick"> and ` +
        `<span aria-label="rocket" class="emoji emoji-1f680" role="img" title="rocket">:rocket:</span> but not :blue_tick:</p>`,
    );
    await api.delete("/api/v1/realm/emoji/green_tick", { as: users.hamlet });
    const later = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "castle",
      content: ":green_tick:",
    });
    expect((await api.get(`/api/v1/messages/${later}`, { as: users.othello })).body.message.content).toBe(
      "<p>:green_tick:</p>",
    );
  });

  it("reacts by name (realm_emoji, the id as emoji_code) or by code, with Zulip's errors", async () => {
    const { api, users } = server;
    const { messageId } = await setUp();
    const url = `/api/v1/messages/${messageId}/reactions`;
    expect((await api.post(url, { as: users.othello, params: { emoji_name: "green_tick" } })).body).toEqual(
      SUCCESS,
    );
    const explicit = { emoji_name: "green_tick", emoji_code: "1", reaction_type: "realm_emoji" };
    expect((await api.post(url, { as: users.hamlet, params: explicit })).body).toEqual(SUCCESS);
    const got = await api.get(`/api/v1/messages/${messageId}`, { as: users.othello });
    expect(got.body.message.reactions).toEqual([
      { ...explicit, user_id: users.othello.id },
      { ...explicit, user_id: users.hamlet.id },
    ]);

    // Checks apply to a new reaction; one already on a message is a vote (Zulip keeps its name).
    const other = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "castle",
      content: "x",
    });
    const otherUrl = `/api/v1/messages/${other}/reactions`;
    const bad = async (params: Record<string, string>, msg: string) =>
      expect((await api.post(otherUrl, { as: users.iago, params })).body).toEqual(error(msg));
    await bad(
      { emoji_name: "green_tick", emoji_code: "99", reaction_type: "realm_emoji" },
      "Invalid custom emoji.",
    );
    await bad(
      { emoji_name: "red_tick", emoji_code: "1", reaction_type: "realm_emoji" },
      "Invalid custom emoji name.",
    );

    expect((await api.delete(url, { as: users.othello, params: { emoji_name: "green_tick" } })).body).toEqual(
      SUCCESS,
    );
    await api.delete("/api/v1/realm/emoji/green_tick", { as: users.hamlet });
    // A new reaction may not use a deactivated emoji; voting for an existing reaction still works.
    await bad({ emoji_name: "green_tick" }, "Emoji 'green_tick' does not exist");
    await bad(explicit, "This custom emoji has been deactivated.");
    expect((await api.post(url, { as: users.iago, params: explicit })).body).toEqual(SUCCESS);
    const after = await api.get(`/api/v1/messages/${messageId}`, { as: users.othello });
    expect(after.body.message.reactions).toEqual([
      { ...explicit, user_id: users.hamlet.id },
      { ...explicit, user_id: users.iago.id },
    ]);
  });
});

describe("custom emoji images", () => {
  it("answers 404 for a file that is not an emoji's, or another realm's path", async () => {
    const { users } = server;
    await uploadEmoji(users.hamlet, "tick", [await png()]);
    const listed = (await listEmoji()) as { emoji: Record<string, { source_url: string }> };
    const url = listed.emoji["1"]?.source_url ?? "";
    for (const path of [
      "/user_avatars/1/emoji/images/00000000.png",
      url.replace("/user_avatars/1/", "/user_avatars/2/"),
      url.replace("/images/", "/images/still/"),
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect([path, res.status, await res.json()]).toEqual([
        path,
        404,
        { result: "error", msg: "File not found", code: "BAD_REQUEST" },
      ]);
    }
  });
});
