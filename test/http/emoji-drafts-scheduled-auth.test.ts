/**
 * The endpoints added for custom emoji, subgroups, drafts and scheduled messages are behind API
 * authentication (the emoji images alone are public, as in Zulip: see custom-emoji.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const ENDPOINTS: [string, string][] = [
  ["GET", "/api/v1/realm/emoji"],
  ["POST", "/api/v1/realm/emoji/green_tick"],
  ["DELETE", "/api/v1/realm/emoji/green_tick"],
  ["GET", "/api/v1/user_groups/1/subgroups"],
  ["POST", "/api/v1/user_groups/1/subgroups"],
  ["GET", "/api/v1/drafts"],
  ["POST", "/api/v1/drafts"],
  ["PATCH", "/api/v1/drafts/1"],
  ["DELETE", "/api/v1/drafts/1"],
  ["GET", "/api/v1/scheduled_messages"],
  ["POST", "/api/v1/scheduled_messages"],
  ["PATCH", "/api/v1/scheduled_messages/1"],
  ["DELETE", "/api/v1/scheduled_messages/1"],
];

describe("authentication of the custom emoji, subgroup, draft and scheduled message endpoints", () => {
  it("answers 401 without credentials and with a wrong API key", async () => {
    for (const [method, path] of ENDPOINTS) {
      const anonymous = await t.api.request(method, path);
      expect([method, path, anonymous.status, anonymous.body]).toEqual([
        method,
        path,
        401,
        {
          result: "error",
          msg: "Not logged in: API authentication or user session required",
          code: "UNAUTHORIZED",
        },
      ]);
      const wrong = await t.api.request(method, path, {
        as: { email: t.users.hamlet.email, apiKey: "A".repeat(32) },
      });
      expect([method, path, wrong.status, wrong.body]).toEqual([
        method,
        path,
        401,
        { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" },
      ]);
    }
  });
});
