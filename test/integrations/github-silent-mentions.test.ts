/**
 * GitHub silent mentions (Zulip 12), through the real endpoint: when exactly one realm user's GitHub
 * external-account profile field holds the sender's login, the message names them `@_**Full Name**`;
 * with no such user, or two, it names the GitHub login.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { caseBody, loadCases } from "../../integrations/kit/index.js";
import type { WebhookCase } from "../../integrations/kit/index.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

const cases = fileURLToPath(new URL("../../integrations/github/fixtures/cases/", import.meta.url));
const fork = loadCases(path.join(cases)).find((c) => c.case_id === "test_fork_msg") as WebhookCase;
const forked = "forked [public-repo](https://github.com/baxterandthehackers/public-repo).";

let t: TestServer;
let fieldId: number;
beforeAll(async () => {
  t = await startTestServer();
  const field = await t.api.post("/api/v1/realm/profile_fields", {
    as: t.users.iago,
    params: { name: "GitHub", field_type: 7, field_data: JSON.stringify({ subtype: "github" }) },
  });
  expect(field.status).toBe(200);
  fieldId = field.body.id as number;
  const sub = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: {
      subscriptions: [{ name: "github" }],
      principals: [t.users.webhookBot.email, t.users.iago.email],
    },
  });
  expect(sub.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

async function setGitHubAccount(user: TestUser, account: string): Promise<void> {
  const res = await t.api.patch("/api/v1/users/me/profile_data", {
    as: user,
    params: { data: [{ id: fieldId, value: account }] },
  });
  expect(res.status).toBe(200);
}

async function postFork(): Promise<string | undefined> {
  const res = await fetch(
    `${t.url}/api/v1/external/github?stream=github&api_key=${t.users.webhookBot.apiKey}`,
    {
      method: "POST",
      headers: { ...fork.headers, "content-type": "application/json" },
      body: new Uint8Array(caseBody(fork)),
    },
  );
  expect({ status: res.status, body: (await res.json()) as unknown }).toEqual({
    status: 200,
    body: { result: "success", msg: "" },
  });
  const messages = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [["stream", "github"]],
      apply_markdown: false,
    },
  });
  return (messages.body.messages as { content: string }[])[0]?.content;
}

describe("GitHub silent mentions", () => {
  it("names the GitHub login when no user has that GitHub account", async () => {
    expect(await postFork()).toBe(`baxterandthehackers ${forked}`);
  });

  it("silently mentions the one user whose GitHub account is the sender's (any case)", async () => {
    await setGitHubAccount(t.users.hamlet, "BaxterAndTheHackers");
    expect(await postFork()).toBe(`@_**${t.users.hamlet.fullName}** ${forked}`);
  });

  it("names the GitHub login again when two users claim the account", async () => {
    await setGitHubAccount(t.users.othello, "baxterandthehackers");
    expect(await postFork()).toBe(`baxterandthehackers ${forked}`);
  });
});

describe("the directory of GitHub accounts", () => {
  it("is read once while no user or profile field changes, and follows a change at once", async () => {
    await setGitHubAccount(t.users.othello, "");
    const allUsers = jest.spyOn(t.running.services.users, "allUsers");
    /** The message a fork names the sender in, and how many times the users were read for it. */
    const post = async (): Promise<[string | undefined, number]> => {
      const before = allUsers.mock.calls.length;
      const content = await postFork();
      return [content, allUsers.mock.calls.length - before];
    };
    try {
      const named = `@_**${t.users.hamlet.fullName}** ${forked}`;
      expect([await post(), await post(), await post()]).toEqual([
        [named, 1],
        [named, 0],
        [named, 0],
      ]);

      const renamed = await t.api.patch(`/api/v1/users/${t.users.hamlet.id}`, {
        as: t.users.iago,
        params: { full_name: "Prince Hamlet" },
      });
      expect(renamed.status).toBe(200);
      expect(await post()).toEqual([`@_**Prince Hamlet** ${forked}`, 1]);

      const deactivated = await t.api.delete(`/api/v1/users/${t.users.hamlet.id}`, { as: t.users.iago });
      expect(deactivated.status).toBe(200);
      expect(await post()).toEqual([`baxterandthehackers ${forked}`, 1]);
    } finally {
      allUsers.mockRestore();
    }
  });
});
