/**
 * resolve_topics in the browser (issue 28, a ticket's life in one topic): the URL builder offers it and
 * edit_status_messages for an integration that supports them, a resolved incident's topic shows as
 * resolved (its acknowledgement's message edited to say so), with
 * the Notification Bot's notice, and a closed Opsgenie alert's topic too, its status message edited
 * (edit_status_messages); on desktop and on a 390 px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { OWNER_PASSWORD } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, DESKTOP, PHONE, hasChromium, printSkipNotice, signIn } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

const incident = (eventType: string, number: number): unknown => ({
  event: {
    event_type: eventType,
    agent: { html_url: "https://acme.pagerduty.com/users/U1", summary: "Ann Agent" },
    data: {
      id: `Q${number}`,
      html_url: `https://acme.pagerduty.com/incidents/Q${number}`,
      number,
      title: "Disk full",
      service: { html_url: "https://acme.pagerduty.com/services/S1", summary: "Storage" },
      assignees: [{ html_url: "https://acme.pagerduty.com/users/U2", summary: "Bob Oncall" }],
    },
  },
});

describeBrowser("resolve_topics in Chromium", () => {
  const fx = new BrowserFixture("topic-lifecycle-test");
  let server: TestServer;

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
    await server.api.post("/api/v1/users/me/subscriptions", {
      as: server.users.iago,
      params: { subscriptions: [{ name: "ops" }] },
    });
  }, 120_000);
  afterAll(() => fx.stop());

  for (const [layout, viewport, number] of [
    ["desktop", DESKTOP, 7],
    ["phone", PHONE, 8],
  ] as const) {
    it(`builds a URL with resolve_topics and edit_status_messages, and shows the resolved topic (${layout})`, async () => {
      const page = await fx.page(viewport);
      page.setDefaultTimeout(60_000);
      await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
      await page.goto(`${server.url}/integrations/pagerduty`);
      await page.getByRole("heading", { name: "PagerDuty", level: 1 }).first().waitFor();
      const bot = server.users.webhookBot;
      await page.getByLabel("Bot", { exact: true }).selectOption({ label: `${bot.fullName} (${bot.email})` });
      await page.getByLabel("Stream", { exact: true }).fill("ops");
      await page.getByLabel(/Mark the topic resolved/).selectOption("true");
      await page.getByLabel(/Edit the last status message/).selectOption("true");
      const url = await page.getByLabel("Integration URL").inputValue();
      expect(new URL(url).searchParams.get("resolve_topics")).toBe("true");
      expect(new URL(url).searchParams.get("edit_status_messages")).toBe("true");

      for (const type of ["incident.triggered", "incident.acknowledged", "incident.resolved"]) {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(incident(type, number)),
        });
        expect(res.status).toBe(200);
      }
      await page.goto(`${server.url}/`);
      const feed = page.getByRole("log", { name: "Message feed" });
      await feed.getByText(`${bot.fullName} has marked this topic as resolved.`).first().waitFor();
      await feed
        .getByRole("link", { name: `#ops › ✔ Incident Disk full (#${number})` })
        .first()
        .waitFor();
      // The acknowledgement's message was edited to say the incident is resolved.
      const incidentMessages = feed.locator(".msg-main", { hasText: `Disk full (#${number})` });
      await incidentMessages
        .filter({ hasText: "resolved by" })
        .getByRole("button", { name: "Show edit history" })
        .waitFor();
      await expect(incidentMessages.filter({ hasText: "acknowledged by" }).count()).resolves.toBe(0);
    }, 240_000);
  }

  for (const [layout, viewport, alias] of [
    ["desktop", DESKTOP, "disk-db1"],
    ["phone", PHONE, "disk-db2"],
  ] as const) {
    it(`shows a closed Opsgenie alert's topic resolved, its status message edited (${layout})`, async () => {
      const bot = server.users.webhookBot;
      const url =
        `${server.url}/api/v1/external/opsgenie?api_key=${bot.apiKey}&stream=ops` +
        "&resolve_topics=true&edit_status_messages=true";
      for (const action of ["Create", "Acknowledge", "Close"]) {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            action,
            integrationName: "Prod",
            alert: { alertId: `id-${alias}`, alias, message: `Disk full (${alias})`, tags: [] },
          }),
        });
        expect(res.status).toBe(200);
      }
      const page = await fx.page(viewport);
      page.setDefaultTimeout(60_000);
      await signIn(page, server.url, server.users.iago.email, OWNER_PASSWORD);
      await page.goto(`${server.url}/`);
      const feed = page.getByRole("log", { name: "Message feed" });
      await feed
        .getByRole("link", { name: `#ops › ✔ Prod / ${alias}` })
        .first()
        .waitFor();
      // The acknowledgement's message now says the alert is closed (edited); none says Acknowledge.
      const alertMessages = feed.locator(".msg-main", { hasText: `Disk full (${alias})` });
      const closed = alertMessages.filter({ hasText: "Type: Close" });
      await closed.getByRole("button", { name: "Show edit history" }).waitFor();
      await expect(alertMessages.count()).resolves.toBe(2);
      await expect(alertMessages.filter({ hasText: "Type: Acknowledge" }).count()).resolves.toBe(0);
    }, 240_000);
  }
});
