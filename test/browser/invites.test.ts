import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import type { TestServer } from "../helpers/test-server.js";
import { BrowserFixture, PHONE, hasChromium, printSkipNotice } from "./browser.js";

const describeBrowser = hasChromium() ? describe : describe.skip;
if (!hasChromium()) printSkipNotice();

describeBrowser("invitation links in Chromium", () => {
  const fx = new BrowserFixture("invites-browser-test");
  let server: TestServer;

  beforeAll(async () => {
    await fx.start();
    server = fx.server;
  }, 120_000);

  afterAll(() => fx.stop());

  /** Iago makes a link on the settings page and reads it from the page. */
  async function makeLink(uses: "One person" | "Anyone with the link"): Promise<string> {
    const page = await fx.signedIn(server.users.iago.email);
    await page.goto(`${server.url}/settings`);
    const form = page.getByRole("form", { name: "New invitation" });
    await form.getByLabel(uses).check();
    await form.getByLabel("Expires after").selectOption({ label: "1 day" });
    await form.getByRole("button", { name: "Create invitation link" }).click();
    const link = await page.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/join/[A-Za-z0-9_-]+/$`));
    await page
      .getByRole("listitem")
      .filter({ hasText: uses === "One person" ? "One person · Member" : "Anyone with the link · Member" })
      .first()
      .waitFor();
    return link;
  }

  async function joinThrough(page: Page, link: string, email: string, name: string): Promise<void> {
    await page.goto(link);
    await page.getByRole("heading", { name: "Join Zulip Dev" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Full name").fill(name);
    await page.getByLabel("Password").fill("a long new password");
    await page.getByRole("button", { name: "Join" }).click();
  }

  it("lets a second person join through a single-use link, into the default streams, with no API call", async () => {
    const link = await makeLink("One person");
    const page = await fx.page();
    await joinThrough(page, link, "rosalind@example.com", "Rosalind");
    // In the app, signed in as the new person, in the realm's default stream.
    await page.getByRole("button", { name: "Log out" }).waitFor();
    await page.getByRole("navigation", { name: "Streams" }).getByRole("link", { name: "#general" }).waitFor();
    await expect(page.locator(".me").textContent()).resolves.toBe("Rosalind");
    // The link is used up.
    const late = await fx.page();
    await late.goto(link);
    await late
      .getByRole("alert")
      .filter({ hasText: "The invitation link has expired or has been deactivated." })
      .waitFor();
  }, 90_000);

  it("lets people join through a multi-use link on a phone, and an admin revokes it", async () => {
    const link = await makeLink("Anyone with the link");
    for (const [email, name] of [
      ["orlando@example.com", "Orlando"],
      ["celia@example.com", "Celia"],
    ] as const) {
      const page = await fx.page(PHONE);
      await joinThrough(page, link, email, name);
      await page.getByRole("button", { name: "Streams" }).click();
      await page
        .getByRole("navigation", { name: "Streams" })
        .getByRole("link", { name: "#general" })
        .waitFor();
    }
    const admin = await fx.signedIn(server.users.iago.email);
    await admin.goto(`${server.url}/settings`);
    const item = admin.getByRole("listitem").filter({ hasText: "Anyone with the link · Member" });
    await item.getByRole("button", { name: /^Revoke invitation/ }).click();
    await admin.getByRole("status").filter({ hasText: "Invitation revoked." }).waitFor();
    const late = await fx.page(PHONE);
    await late.goto(link);
    await late.getByRole("heading", { name: "Invitation not valid" }).waitFor();
  }, 120_000);

  it("shows who may invite as stored, saves a change with can_invite_users_group, and keeps it after a reload", async () => {
    const { iago, hamlet } = server.users;
    const page = await fx.signedIn(iago.email);
    await page.goto(`${server.url}/settings`);
    const menu = page.getByLabel("Who can invite one person");
    // The realm's value from register on first open: administrators (the default).
    await menu.locator("option:checked", { hasText: /^Administrators$/ }).waitFor({ state: "attached" });
    await menu.selectOption({ label: "All members" });
    await page.getByRole("status").filter({ hasText: "Invitation policy saved." }).waitFor();
    const stored = await server.api.post("/api/v1/register", {
      as: hamlet,
      params: { fetch_event_types: ["realm", "realm_user"] },
    });
    expect([stored.body.realm_can_invite_users_group, stored.body.can_invite_others_to_realm]).toEqual([
      5,
      true,
    ]);
    await page.reload();
    // An <option> is never "visible" to Playwright: wait for the checked one to exist.
    await page
      .getByLabel("Who can invite one person")
      .locator("option:checked", { hasText: "All members" })
      .waitFor({ state: "attached" });
    await page.getByLabel("Who can invite one person").selectOption({ label: "Nobody" });
    await page.getByRole("status").filter({ hasText: "Invitation policy saved." }).waitFor();
    await page.reload();
    await page
      .getByLabel("Who can invite one person")
      .locator("option:checked", { hasText: "Nobody" })
      .waitFor({ state: "attached" });
    // A member, now that nobody may invite, is told to ask an administrator instead of a form.
    const member = await fx.signedIn(hamlet.email, `${hamlet.email}-password`);
    await member.goto(`${server.url}/settings`);
    await member.getByText("ask an administrator for an invitation link").waitFor();
    await expect(member.getByRole("button", { name: "Create invitation link" }).count()).resolves.toBe(0);
    // Back to the default, so the other tests' links are made as before.
    await page.getByLabel("Who can invite one person").selectOption({ label: "Administrators" });
    await page.getByRole("status").filter({ hasText: "Invitation policy saved." }).waitFor();
  }, 120_000);

  it("saves who may make links anyone can use with create_multiuse_invite_group, on its own", async () => {
    const { iago, hamlet } = server.users;
    const page = await fx.signedIn(iago.email);
    await page.goto(`${server.url}/settings`);
    const reusable = page.getByLabel("Who can make links anyone can use");
    await reusable.locator("option:checked", { hasText: /^Administrators$/ }).waitFor({ state: "attached" });
    await reusable.selectOption({ label: "Full members" });
    await page.getByRole("status").filter({ hasText: "Invitation policy saved." }).waitFor();
    const stored = await server.api.post("/api/v1/register", {
      as: hamlet,
      params: { fetch_event_types: ["realm"] },
    });
    expect([
      stored.body.realm_create_multiuse_invite_group,
      stored.body.realm_can_invite_users_group,
    ]).toEqual([4, 2]);
    await page.reload();
    await page
      .getByLabel("Who can make links anyone can use")
      .locator("option:checked", { hasText: "Full members" })
      .waitFor({ state: "attached" });
    await page.getByLabel("Who can make links anyone can use").selectOption({ label: "Administrators" });
    await page.getByRole("status").filter({ hasText: "Invitation policy saved." }).waitFor();
  }, 120_000);
});
