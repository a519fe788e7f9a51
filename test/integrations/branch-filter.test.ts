/**
 * The `branches` option every Git integration shares (integrations/kit/branches.ts), through the
 * real endpoint: a recorded push of each service, sent once with `branches` naming another branch
 * (answered with success, nothing posted) and once naming its own branch among others (posted).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { caseBody, caseQuery, loadCases, unquote } from "../../integrations/kit/index.js";
import type { WebhookCase } from "../../integrations/kit/index.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const root = fileURLToPath(new URL("../../integrations/", import.meta.url));

/** A recorded push of each Git integration, and the branch it pushes to. */
const PUSHES: readonly [integration: string, caseId: string, branch: string][] = [
  ["github", "test_push_1_commit_filtered_by_branches", "changes"],
  ["gitlab", "test_push_event_message", "tomek"],
  ["gitea", "test_multiple_commits", "d"],
  ["gogs", "test_push_commits_more_than_limits", "master"],
  ["bitbucket2", "test_bitbucket2_on_force_push_event", "master"],
  ["bitbucket3", "test_push_add_branch", "branch2"],
  ["azuredevops", "test_push_event_message", "main"],
  ["rhodecode", "test_push_commits_more_than_limit", "master"],
];

function findCase(integration: string, caseId: string): WebhookCase {
  const found = loadCases(path.join(root, integration, "fixtures", "cases")).find(
    (c) => c.case_id === caseId,
  );
  if (found === undefined) throw new Error(`no case ${integration}/${caseId}`);
  return found;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function newestInStream(stream: string): Promise<{ id: number; subject: string } | undefined> {
  const res = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: { anchor: "newest", num_before: 1, num_after: 0, narrow: [["stream", stream]] },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number; subject: string }[])[0];
}

async function send(c: WebhookCase, branches: string): Promise<{ status: number; body: unknown }> {
  const query = caseQuery(c)
    .split("&")
    .filter((part) => !part.startsWith("branches="))
    .concat([`api_key=${t.users.webhookBot.apiKey}`, `branches=${encodeURIComponent(branches)}`])
    .join("&");
  const headers: Record<string, string> = { ...c.headers };
  if (c.content_type !== null) headers["content-type"] = c.content_type;
  const res = await fetch(`${t.url}${c.url_path}?${query}`, {
    method: "POST",
    headers,
    body: new Uint8Array(caseBody(c)),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("the branches option of every Git integration", () => {
  for (const [integration, caseId, branch] of PUSHES) {
    it(`${integration}: posts a push only when branches lists its branch`, async () => {
      const c = findCase(integration, caseId);
      const stream = unquote(c.channel ?? "");
      const sub = await t.api.post("/api/v1/users/me/subscriptions", {
        as: t.users.iago,
        params: {
          subscriptions: [{ name: stream }],
          principals: [t.users.webhookBot.email, t.users.iago.email],
        },
      });
      expect(sub.status).toBe(200);
      const before = (await newestInStream(stream))?.id ?? 0;

      expect(await send(c, "no-such-branch,other")).toEqual({
        status: 200,
        body: { result: "success", msg: "" },
      });
      expect((await newestInStream(stream))?.id ?? 0).toBe(before);

      expect(await send(c, `other,${branch}`)).toEqual({ status: 200, body: { result: "success", msg: "" } });
      const posted = await newestInStream(stream);
      expect({ newer: (posted?.id ?? 0) > before, topic: posted?.subject }).toEqual({
        newer: true,
        topic: c.expected_topic,
      });
    });
  }
});
