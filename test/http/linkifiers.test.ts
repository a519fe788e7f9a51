import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream, send } from "./message-helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const PATTERN = "#(?P<id>[0-9]+)";
const TEMPLATE = "https://github.com/zulip/zulip/issues/{id}";

describe("linkifiers", () => {
  it("adds, lists, changes and deletes linkifiers, with events and register state", async () => {
    const server = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["realm_linkifiers"] });
    const added = await api.post("/api/v1/realm/filters", {
      as: users.iago,
      params: { pattern: PATTERN, url_template: TEMPLATE },
    });
    expect(added.body).toEqual({ ...ok, id: 1 });
    const linkifier = { pattern: PATTERN, url_template: TEMPLATE, id: 1 };
    expect((await api.get("/api/v1/realm/linkifiers", { as: users.hamlet })).body).toEqual({
      ...ok,
      linkifiers: [linkifier],
    });
    const reg = await registerQueue(server, users.hamlet, {
      fetch_event_types: ["realm_linkifiers", "realm_filters"],
    });
    expect([reg.register.realm_linkifiers, reg.register.realm_filters]).toEqual([
      [linkifier],
      [[PATTERN, TEMPLATE, 1]],
    ]);
    const changed = { pattern: "GH-(?P<id>[0-9]+)", url_template: TEMPLATE };
    expect((await api.patch("/api/v1/realm/filters/1", { as: users.iago, params: changed })).body).toEqual(
      ok,
    );
    expect((await api.delete("/api/v1/realm/filters/1", { as: users.iago })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm_linkifiers", realm_linkifiers: [linkifier] },
      { id: 1, type: "realm_linkifiers", realm_linkifiers: [{ ...changed, id: 1 }] },
      { id: 2, type: "realm_linkifiers", realm_linkifiers: [] },
    ]);
  });

  it("links matching text in new messages, outside code and links", async () => {
    const server = await start();
    const { api, users } = server;
    await api.post("/api/v1/realm/filters", {
      as: users.iago,
      params: { pattern: PATTERN, url_template: TEMPLATE },
    });
    const streamId = await createStream(server, "Denmark", [users.hamlet]);
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: streamId,
      topic: "t",
      content: "Fixes #123 and a#1, not `#456`",
    });
    const msg = await api.get(`/api/v1/messages/${id}`, { as: users.hamlet });
    expect(msg.body.message.content).toBe(
      '<p>Fixes <a href="https://github.com/zulip/zulip/issues/123" title="https://github.com/zulip/zulip/issues/123">#123</a>' +
        " and a#1, not <code>#456</code></p>",
    );
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    const add = (as: typeof users.iago, pattern: string, url_template: string) =>
      api.post("/api/v1/realm/filters", { as, params: { pattern, url_template } });
    expect((await add(users.hamlet, PATTERN, TEMPLATE)).body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
    expect((await add(users.iago, "(", TEMPLATE)).body).toEqual(
      error("Bad regular expression: missing closing ): ("),
    );
    expect((await add(users.iago, PATTERN, "not a url")).body).toEqual(error("Invalid URL template."));
    expect((await add(users.iago, "#(?P<num>[0-9]+)", TEMPLATE)).body).toEqual(
      error('Group "id" in URL template is not present in linkifier pattern.'),
    );
    await add(users.iago, PATTERN, TEMPLATE);
    expect((await add(users.iago, PATTERN, TEMPLATE)).body).toEqual(
      error("Linkifier with this Pattern already exists."),
    );
    await add(users.iago, "GH-(?P<id>[0-9]+)", TEMPLATE);
    const list = (await api.get("/api/v1/realm/linkifiers", { as: users.iago })).body.linkifiers;
    const [first, second] = list as { id: number; pattern: string }[];
    expect(
      (
        await api.patch(`/api/v1/realm/filters/${second!.id}`, {
          as: users.iago,
          params: { pattern: PATTERN, url_template: TEMPLATE },
        })
      ).body,
    ).toEqual(error("Linkifier with this Pattern already exists."));
    expect(
      (
        await api.patch(`/api/v1/realm/filters/${first!.id}`, {
          as: users.iago,
          params: { pattern: PATTERN, url_template: TEMPLATE },
        })
      ).body,
    ).toEqual(ok);
    expect((await api.delete("/api/v1/realm/filters/99", { as: users.iago })).body).toEqual(
      error("Linkifier not found."),
    );
  });

  it("stores one linkifier when an administrator adds the same pattern from several clients at once", async () => {
    const { api, users } = await start();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        api.post("/api/v1/realm/filters", {
          as: users.iago,
          params: { pattern: PATTERN, url_template: TEMPLATE },
        }),
      ),
    );
    const added = answers.filter((a) => a.status === 200);
    expect(added).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([
      [400, error("Linkifier with this Pattern already exists.")],
      [400, error("Linkifier with this Pattern already exists.")],
    ]);
    expect((await api.get("/api/v1/realm/linkifiers", { as: users.iago })).body.linkifiers).toEqual([
      { id: added[0]!.body.id, pattern: PATTERN, url_template: TEMPLATE },
    ]);
  });
});
