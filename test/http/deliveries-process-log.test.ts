/** No api_key, secret, signature or token reaches the process's log lines either (debug level included). */
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { defaultConfig } from "../../src/config.js";
import type { Logger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import type { RunningServer } from "../../src/server.js";

const lines: string[] = [];
const capture = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
  lines.push(
    `${level} ${msg} ${JSON.stringify(fields ?? {}, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v))}`,
  );
};
const logger: Logger = {
  debug: capture("debug"),
  info: capture("info"),
  warn: capture("warn"),
  error: capture("error"),
};

let running: RunningServer;
beforeAll(async () => {
  running = await startServer(
    defaultConfig({
      port: 0,
      dataDir: ":memory:",
      rateLimit: null,
      logLevel: "debug",
      webhookRateLimit: { count: 1, seconds: 60 },
    }),
    { logger, ownerPassword: "pw" },
  );
});
afterAll(async () => {
  await running.close();
});

it("logs requests and deliveries without credentials", async () => {
  const { users } = running.services;
  const owner = running.firstStart!.owner;
  const { bot } = await users.createBot(owner, { fullName: "Hook", shortName: "hook", botType: 2 });
  await users.updateBotConfig(owner, bot.id, { github_secret: "config-secret-111" });
  const secrets = [
    bot.apiKey,
    "config-secret-111",
    "sig-value-222",
    "body-token-333",
    "query-token-444",
    "bearer-555",
  ];
  const send = () =>
    fetch(`${running.url}/api/v1/external/github?api_key=${bot.apiKey}&token=query-token-444`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-hub-signature-256": "sha256=sig-value-222",
        authorization: "Bearer bearer-555",
      },
      body: '{"zen":"z","hook_id":1,"token":"body-token-333"}',
    });
  expect((await send()).status).toBe(401); // the signature does not match
  expect((await send()).status).toBe(429); // over the bot's limit of 1 per minute
  await running.services.deliveries.flush();
  const entries = await running.services.deliveries.list({ botId: bot.id, limit: 10 });
  expect(entries.map((e) => e.outcome)).toEqual(["rejected", "rejected"]);
  expect(lines.length).toBeGreaterThan(0);
  const text = lines.join("\n") + JSON.stringify(entries);
  for (const secret of secrets)
    expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
});
