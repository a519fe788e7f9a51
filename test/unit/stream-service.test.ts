import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { User } from "../../src/domain/users/types.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const NOW = 1767225600;
const pgUp = await postgresAvailable();
const dialects: ["sqlite" | "postgres"][] = pgUp ? [["sqlite"], ["postgres"]] : [["sqlite"]];

/** The StreamService end to end on each store dialect (the SQL is written once for both). */
describe.each(dialects)("StreamService on %s", (dialect) => {
  let t: TestServer;
  let drop: () => Promise<void> = () => Promise.resolve();
  let hamlet: User;
  let othello: User;
  let iago: User;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (dialect === "postgres") {
      const schema = await freshPostgresSchema();
      databaseUrl = schema.url;
      drop = schema.drop;
    }
    t = await startTestServer({
      clock: new ManualClock(Date.UTC(2026, 0, 1)),
      ...(databaseUrl === undefined ? {} : { config: { databaseUrl } }),
    });
    const users = t.running.services.users;
    hamlet = (await users.byId(t.users.hamlet.id))!;
    othello = (await users.byId(t.users.othello.id))!;
    iago = (await users.byId(t.users.iago.id))!;
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  const opts = {
    inviteOnly: false,
    historyPublicToSubscribers: undefined,
    isAnnouncementOnly: false,
    announce: false,
    principals: undefined,
    authorizationErrorsFatal: true,
  };

  it("creates, subscribes, answers access questions and lists subscribers", async () => {
    const streams = t.running.services.streams;
    const outcome = await streams.subscribe(hamlet, [{ name: "Denmark" }], {
      ...opts,
      principals: ["hamlet@zulip.com", 4],
    });
    expect(outcome).toEqual({
      subscribed: { "hamlet@zulip.com": ["Denmark"], "othello@zulip.com": ["Denmark"] },
      alreadySubscribed: {},
      unauthorized: [],
    });
    await streams.subscribe(othello, [{ name: "secret", description: "plans" }], {
      ...opts,
      inviteOnly: true,
    });
    const denmark = (await streams.byName("DENMARK"))!;
    const secret = (await streams.byId(3))!;
    expect(denmark).toEqual({
      id: 2,
      realmId: 1,
      name: "Denmark",
      description: "",
      renderedDescription: "",
      inviteOnly: false,
      historyPublicToSubscribers: true,
      isAnnouncementOnly: false,
      isArchived: false,
      isWebPublic: false,
      isDefault: false,
      dateCreated: NOW,
      creatorId: 3,
      firstMessageId: null,
      // Its creator administers it, as in Zulip.
      groupSettings: { can_administer_channel_group: { direct_members: [3], direct_subgroups: [] } },
      topicsPolicy: "inherit",
    });
    expect(secret.name).toBe("secret");
    expect(secret.renderedDescription).toBe("<p>plans</p>");
    expect(await streams.subscriberIds(2)).toEqual([3, 4]);
    expect(await streams.subscriberIdsOf([2, 3, 99])).toEqual(
      new Map([
        [2, [3, 4]],
        [3, [4]],
        [99, []],
      ]),
    );
    expect(await streams.subscribedStreamIds(4)).toEqual([2, 3]);
    expect(await streams.isSubscribed(3, 3)).toBe(false);
    expect(await streams.canAccess(hamlet, secret)).toBe(false);
    expect(await streams.canAccess(othello, secret)).toBe(true);
    expect(await streams.canPost(hamlet, secret)).toBe(false);
    expect(await streams.canPost(hamlet, denmark)).toBe(true);
    await expect(streams.accessibleByName(hamlet, "secret")).rejects.toThrow("Invalid stream name 'secret'");
    await expect(streams.accessibleById(hamlet, 3)).rejects.toThrow("Invalid stream ID");
    expect((await streams.accessibleById(othello, 3)).id).toBe(3);
  });

  it("keeps subscription settings across unsubscribing", async () => {
    const streams = t.running.services.streams;
    await streams.updateSubscriptionProperties(hamlet, [
      { streamId: 2, property: "color", value: "123456" },
      { streamId: 2, property: "in_home_view", value: false },
      { streamId: 2, property: "desktop_notifications", value: true },
    ]);
    expect(await streams.unsubscribe(iago, ["Denmark"], ["hamlet@zulip.com"])).toEqual({
      removed: ["Denmark"],
      notRemoved: [],
    });
    expect(await streams.subscriberIds(2)).toEqual([4]);
    await streams.subscribe(hamlet, [{ name: "Denmark" }], opts);
    const [sub] = await streams.subscriptionsOf(3);
    expect(sub).toEqual({
      userId: 3,
      streamId: 2,
      active: true,
      color: "#123456",
      isMuted: true,
      pinToTop: false,
      desktopNotifications: true,
      audibleNotifications: null,
      pushNotifications: null,
      emailNotifications: null,
      wildcardMentionsNotify: null,
      dateSubscribed: NOW,
    });
    expect(await streams.mutedStreamIds(3)).toEqual([2]);
  });

  it("mutes topics and stores notification settings", async () => {
    const streams = t.running.services.streams;
    await streams.updateMutedTopic(hamlet, {
      streamName: "Denmark",
      streamId: undefined,
      topic: "Castle",
      op: "add",
    });
    expect(await streams.mutedTopics(3)).toEqual([["Denmark", "Castle", NOW]]);
    expect(await streams.isTopicMuted(3, 2, "castle")).toBe(true);
    await expect(
      streams.updateMutedTopic(hamlet, { streamName: undefined, streamId: 2, topic: "CASTLE", op: "add" }),
    ).rejects.toThrow("Topic already muted");
    expect(
      await streams.updateNotificationSettings(hamlet, { enable_sounds: false, enable_digest_emails: true }),
    ).toEqual({ enable_sounds: false });
    expect((await streams.notificationSettings(3)).enable_sounds).toBe(false);
  });

  it("records a stream's first message once", async () => {
    const streams = t.running.services.streams;
    await streams.noteMessageSent(3, 40);
    await streams.noteMessageSent(3, 50);
    expect((await streams.byId(3))?.firstMessageId).toBe(40);
  });
});
