import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/v1/users/me/subscriptions when a notice cannot be posted", () => {
  it("still answers success and keeps the subscriptions", async () => {
    const send = jest
      .spyOn(t.running.services.messages, "send")
      .mockRejectedValue(new Error("the messages service is down"));
    try {
      const res = await t.api.post("/api/v1/users/me/subscriptions", {
        as: t.users.iago,
        params: {
          subscriptions: [{ name: "announced" }],
          principals: [t.users.hamlet.email],
          announce: true,
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        result: "success",
        msg: "",
        subscribed: { "hamlet@zulip.com": ["announced"] },
        already_subscribed: {},
      });
      expect(send).toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
    const subs = await t.api.get("/api/v1/users/me/subscriptions", { as: t.users.hamlet });
    expect((subs.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(["announced"]);
  });
});
