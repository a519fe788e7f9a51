/**
 * HTTP tests of the server fixes the Python-client check (python-client.test.ts) called for: file
 * parts without a Content-Type, `url_format_string` linkifiers (feature level < 176), managing custom
 * profile fields, and the stream email address this server can't give.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { basicAuthHeader } from "../helpers/client.js";
import { assertZulipSchema } from "../helpers/openapi.js";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const badRequest = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

/** A multipart body written by hand: one part, with or without a filename and a Content-Type. */
async function postMultipart(
  as: TestUser,
  part: { name: string; filename?: string; contentType?: string; content: string },
): Promise<{ status: number; body: unknown }> {
  const boundary = "0123456789abcdef0123456789abcdef";
  const disposition =
    `form-data; name="${part.name}"` + (part.filename !== undefined ? `; filename="${part.filename}"` : "");
  const headers =
    `Content-Disposition: ${disposition}\r\n` +
    (part.contentType ? `Content-Type: ${part.contentType}\r\n` : "");
  const body = `--${boundary}\r\n${headers}\r\n${part.content}\r\n--${boundary}--\r\n`;
  const res = await fetch(`${server.url}/api/v1/user_uploads`, {
    method: "POST",
    headers: {
      authorization: basicAuthHeader(as),
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    body,
  });
  const parsed = (await res.json()) as unknown;
  assertZulipSchema("POST", "/api/v1/user_uploads", res.status, parsed);
  return { status: res.status, body: parsed };
}

describe("POST /user_uploads: file parts as python-requests sends them", () => {
  it("takes a part with a filename and no Content-Type as the file, whatever its field name", async () => {
    const { hamlet } = server.users;
    const res = await postMultipart(hamlet, {
      name: "/home/bot/report.txt",
      filename: "report.txt",
      content: "42",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...ok,
      uri: expect.stringMatching(/^\/user_uploads\/1\/.+\/report\.txt$/),
      url: (res.body as { uri: string }).uri,
      filename: "report.txt",
    });
    const file = await fetch(server.url + (res.body as { uri: string }).uri, {
      headers: { authorization: basicAuthHeader(hamlet) },
    });
    expect([file.status, await file.text()]).toEqual([200, "42"]);
  });

  it("still reads a part without a filename as a form field, not a file", async () => {
    const res = await postMultipart(server.users.hamlet, { name: "file", content: "not a file" });
    expect(res).toEqual({ status: 400, body: badRequest("You must specify a file to upload") });
  });
});

describe("POST and PATCH /realm/filters with url_format_string (before feature level 176)", () => {
  it("stores %(name)s as an RFC 6570 {name} and %% as a literal %", async () => {
    const { api, users } = server;
    const added = await api.post("/api/v1/realm/filters", {
      as: users.iago,
      params: { pattern: "#(?P<id>[0-9]+)", url_format_string: "https://example.com/%%7E/issues/%(id)s" },
    });
    expect(added.body).toEqual({ ...ok, id: 1 });
    expect((await api.get("/api/v1/realm/linkifiers", { as: users.hamlet })).body).toEqual({
      ...ok,
      linkifiers: [
        { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/%7E/issues/{id}", id: 1 },
      ],
    });
    const changed = await api.patch("/api/v1/realm/filters/1", {
      as: users.iago,
      params: { pattern: "GH-(?P<num>[0-9]+)", url_format_string: "https://github.com/x/y/pull/%(num)s" },
    });
    expect(changed.body).toEqual(ok);
    expect((await api.get("/api/v1/realm/linkifiers", { as: users.hamlet })).body.linkifiers).toEqual([
      { pattern: "GH-(?P<num>[0-9]+)", url_template: "https://github.com/x/y/pull/{num}", id: 1 },
    ]);
  });

  it("refuses both forms at once, and asks for url_template when neither is given", async () => {
    const { api, users } = server;
    const both = await api.post("/api/v1/realm/filters", {
      as: users.iago,
      params: {
        pattern: "#(?P<id>[0-9]+)",
        url_template: "https://a/{id}",
        url_format_string: "https://a/%(id)s",
      },
    });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      result: "error",
      msg: "Can't decide between 'url_template' and 'url_format_string' arguments",
      code: "REQUEST_CONFUSING_VAR",
      var_name1: "url_template",
      var_name2: "url_format_string",
    });
    const neither = await api.post("/api/v1/realm/filters", { as: users.iago, params: { pattern: "x" } });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({
      result: "error",
      msg: "Missing 'url_template' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "url_template",
    });
  });
});

describe("custom profile fields: update, delete, reorder", () => {
  async function field(name: string): Promise<number> {
    const res = await server.api.post("/api/v1/realm/profile_fields", {
      as: server.users.iago,
      params: { name, hint: `${name} hint`, field_type: 1 },
    });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }
  const listed = async () =>
    (await server.api.get("/api/v1/realm/profile_fields", { as: server.users.hamlet })).body;

  it("changes a field's label and hint, with a custom_profile_fields event to everyone", async () => {
    const phone = await field("Phone");
    const q = await registerQueue(server, server.users.hamlet, { event_types: ["custom_profile_fields"] });
    const res = await server.api.patch(`/api/v1/realm/profile_fields/${phone}`, {
      as: server.users.iago,
      params: { name: "Mobile", hint: "With country code" },
    });
    expect(res.body).toEqual(ok);
    const fields = [
      {
        id: phone,
        name: "Mobile",
        type: 1,
        hint: "With country code",
        field_data: "",
        order: 1,
        required: false,
        editable_by_user: true,
      },
    ];
    expect(await listed()).toEqual({ ...ok, custom_fields: fields });
    expect(await drainEvents(q)).toEqual([{ id: 0, type: "custom_profile_fields", fields }]);
  });

  it("refuses an unknown field, a blank or taken label, and non-administrators", async () => {
    const phone = await field("Phone");
    await field("Pager");
    const { api, users } = server;
    const patch = (id: number, params: Record<string, string>, as = users.iago) =>
      api.patch(`/api/v1/realm/profile_fields/${id}`, { as, params });
    expect((await patch(999, { name: "X" })).body).toEqual(badRequest("Field id 999 not found."));
    expect((await patch(phone, { name: "  " })).body).toEqual(badRequest("Label cannot be blank."));
    expect((await patch(phone, { name: "pager" })).body).toEqual(
      badRequest("A field with that label already exists."),
    );
    const member = await patch(phone, { name: "Mine" }, users.hamlet);
    expect(member.body).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    expect(
      (await api.delete(`/api/v1/realm/profile_fields/${phone}`, { as: users.hamlet })).body,
    ).toMatchObject({
      result: "error",
      msg: "Must be an organization administrator",
    });
    expect((await listed()).custom_fields.map((f: { name: string }) => f.name)).toEqual(["Phone", "Pager"]);
  });

  it("creates one field when two administrators add the same label at once; the others are refused", async () => {
    // Both pass the "is the label free?" check before either writes: the insert decides.
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        server.api.post("/api/v1/realm/profile_fields", {
          as: server.users.iago,
          params: { name: "Desk", hint: "", field_type: 1 },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([
      [400, badRequest("A field with that label already exists.")],
      [400, badRequest("A field with that label already exists.")],
    ]);
    expect((await listed()).custom_fields.map((f: { id: number; name: string }) => [f.id, f.name])).toEqual([
      [created[0]!.body.id, "Desk"],
    ]);
  });

  it("deletes a field and everyone's value of it", async () => {
    const phone = await field("Phone");
    const { api, users } = server;
    await api.patch("/api/v1/users/me/profile_data", {
      as: users.hamlet,
      params: { data: [{ id: phone, value: "555-1234" }] },
    });
    const q = await registerQueue(server, users.othello, { event_types: ["custom_profile_fields"] });
    expect((await api.delete(`/api/v1/realm/profile_fields/${phone}`, { as: users.iago })).body).toEqual(ok);
    expect(await listed()).toEqual({ ...ok, custom_fields: [] });
    expect(await drainEvents(q)).toEqual([{ id: 0, type: "custom_profile_fields", fields: [] }]);
    const hamlet = await api.get(`/api/v1/users/${users.hamlet.id}`, {
      as: users.othello,
      params: { include_custom_profile_fields: true },
    });
    expect(hamlet.body.user.profile_data).toEqual({});
    expect((await api.delete(`/api/v1/realm/profile_fields/${phone}`, { as: users.iago })).body).toEqual(
      badRequest(`Field id ${phone} not found.`),
    );
  });

  it("reorders the fields when every field is named once", async () => {
    const a = await field("A");
    const b = await field("B");
    const c = await field("C");
    const { api, users } = server;
    const reorder = (order: number[]) =>
      api.patch("/api/v1/realm/profile_fields", { as: users.iago, params: { order } });
    expect((await reorder([c, a, b])).body).toEqual(ok);
    expect((await listed()).custom_fields.map((f: { id: number; order: number }) => [f.id, f.order])).toEqual(
      [
        [c, 1],
        [a, 2],
        [b, 3],
      ],
    );
    for (const bad of [
      [c, a],
      [c, a, b, b],
      [c, a, 999],
    ]) {
      expect((await reorder(bad)).body).toEqual(badRequest("Invalid order mapping."));
    }
  });
});

describe("GET /streams/{stream_id}/email_address", () => {
  it("answers that there is no email gateway, after the usual stream access check", async () => {
    const { api, users } = server;
    const created = await api.post("/api/v1/users/me/subscriptions", {
      as: users.hamlet,
      params: { subscriptions: [{ name: "mailing" }] },
    });
    expect(created.status).toBe(200);
    const id = (await api.get("/api/v1/get_stream_id", { as: users.hamlet, params: { stream: "mailing" } }))
      .body.stream_id as number;
    const res = await api.get(`/api/v1/streams/${id}/email_address`, { as: users.hamlet });
    expect([res.status, res.body]).toEqual([
      400,
      badRequest("This server has no incoming email gateway, so streams have no email address"),
    ]);
    const unknown = await api.get("/api/v1/streams/999/email_address", { as: users.hamlet });
    expect([unknown.status, unknown.body]).toEqual([400, badRequest("Invalid stream ID")]);
  });
});

describe("GET /messages: narrow operators spelled with _ (pm_with)", () => {
  it("reads pm_with as pm-with, in both narrow forms, as Zulip's operator lookup does", async () => {
    const { api, users } = server;
    const sent = await api.post("/api/v1/messages", {
      as: users.othello,
      params: { type: "private", to: [users.hamlet.id], content: "psst" },
    });
    const id = sent.body.id as number;
    const fetch = (narrow: unknown[]) =>
      api.get("/api/v1/messages", {
        as: users.hamlet,
        params: { anchor: "newest", num_before: 10, num_after: 0, narrow },
      });
    for (const narrow of [
      [["pm_with", users.othello.email]],
      [{ operator: "pm_with", operand: [users.othello.id] }],
    ]) {
      const res = await fetch(narrow);
      expect([res.status, res.body.messages.map((m: { id: number }) => m.id)]).toEqual([200, [id]]);
    }
    const unknown = await fetch([["pm_wit", users.othello.email]]);
    expect([unknown.status, unknown.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Invalid narrow operator: unknown operator pm_wit",
        code: "BAD_NARROW",
        desc: "unknown operator pm_wit",
      },
    ]);
  });
});
