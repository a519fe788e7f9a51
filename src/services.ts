import type { Clock } from "./clock.js";
import type { ServerConfig } from "./config.js";
import type { EventSink } from "./domain/events/event-sink.js";
import { EventQueueService } from "./domain/events/event-queue-service.js";
import { MemoryEventQueueStore } from "./domain/events/memory-queue-store.js";
import { MessageService } from "./domain/messages/message-service.js";
import { BotStorageService } from "./domain/outgoing/bot-storage-service.js";
import { OutgoingWebhookService } from "./domain/outgoing/outgoing-webhook-service.js";
import { StreamAccess } from "./domain/streams/access.js";
import { StreamService } from "./domain/streams/stream-service.js";
import { localStorageFor } from "./domain/uploads/storage.js";
import { UploadService } from "./domain/uploads/upload-service.js";
import { createCustomEmoji } from "./domain/emoji/custom-emoji-service.js";
import type { CustomEmojiService } from "./domain/emoji/custom-emoji-service.js";
import { DraftsService } from "./domain/drafts/drafts-service.js";
import { ScheduledMessagesService } from "./domain/scheduled/scheduled-messages-service.js";
import { UserService } from "./domain/users/user-service.js";
import { BotLifecycleService } from "./domain/users/bot-lifecycle.js";
import { BotsRepo } from "./store/bots-repo.js";
import { WebhookService, registryOf } from "./domain/webhooks/webhook-service.js";
import type { SendMessage } from "./domain/webhooks/webhook-service.js";
import { WebhookRateLimiter } from "./domain/webhooks/rate-limit.js";
import { DeliveryLog } from "./domain/deliveries/delivery-log.js";
import { DEFAULT_DELIVERY_LOG } from "./domain/deliveries/types.js";
import { outgoingAttemptLogger } from "./domain/deliveries/outgoing-log.js";
import { integrations } from "../integrations/index.js";
import type { Logger } from "./logger.js";
import type { Db } from "./store/db.js";
import { repoStore } from "./store/repos.js";
import { UsersRepo } from "./store/users-repo.js";
import { SessionsRepo } from "./store/sessions-repo.js";
import { SessionService } from "./domain/web/session-service.js";
import type { SharedState } from "./infra/shared-state.js";
import {
  createLinkifiers,
  createPersonalLists,
  createUserFeatures,
  createUserGroups,
} from "./user-features.js";
import type { UserFeatures } from "./user-features.js";

/**
 * The domain services of one server process, wired to one store. Routes receive this object;
 * each area (messaging, events, webhooks, bots) adds its service here.
 */
export interface Services extends UserFeatures {
  db: Db;
  config: ServerConfig;
  clock: Clock;
  logger: Logger;
  events: EventSink;
  /** Event queues and long polling (register, GET/DELETE /events); also `events`. */
  eventQueues: EventQueueService;
  users: UserService;
  /** Editing, deactivating and reactivating bots, regenerating keys (src/domain/users/bot-lifecycle.ts). */
  botLifecycle: BotLifecycleService;
  webhooks: WebhookService;
  /** The webhook delivery log (GET /bots/{id}/deliveries, replays). */
  deliveries: DeliveryLog;
  streams: StreamService;
  /** Messages, flags and unread counts; `messages.send` is how webhooks and bots post. */
  messages: MessageService;
  /** Uploaded files and attachments (POST /user_uploads, GET /user_uploads/…, /attachments). */
  uploads: UploadService;
  /** Custom emoji (/realm/emoji, the images at /user_avatars/…/emoji/), used by Markdown and reactions. */
  customEmoji: CustomEmojiService;
  /** Drafts synced between a user's clients (/drafts). */
  drafts: DraftsService;
  /** Scheduled messages (/scheduled_messages) and their delivery worker (`tick()` in tests). */
  scheduledMessages: ScheduledMessagesService;
  /** Bots' key-value storage (`/api/v1/bot_storage`, embedded bots). */
  botStorage: BotStorageService;
  /** Outgoing webhooks and embedded bots: triggers, durable delivery, retries (`tick()` in tests). */
  outgoing: OutgoingWebhookService;
  /** Web-app sessions (sign-in at /login, `/json` requests). */
  sessions: SessionService;
  /** State shared with other server processes (`--redis`); empty in a single process. */
  shared: SharedState;
  /** Highest message id the user can see (users/me, register); -1 when none. */
  maxMessageId(userId: number): Promise<number>;
  /** Stops timers and background work (event-queue GC, delivery workers). */
  close(): Promise<void>;
}

export function createServices(
  db: Db,
  config: ServerConfig,
  clock: Clock,
  logger: Logger,
  shared: SharedState = {},
): Services {
  const queueStore = shared.queueStore ?? new MemoryEventQueueStore();
  const eventQueues = new EventQueueService(queueStore, config.events, clock, logger);
  eventQueues.startGc();
  const events: EventSink = eventQueues;
  const users = new UserService(new UsersRepo(db), events, clock, () => config.botDomain, shared.failureLog);
  const closers: (() => Promise<void> | void)[] = [() => eventQueues.close()];
  const store = repoStore(db);
  const streamAccess = new StreamAccess(store.read.streams);
  // `@*group*` mentions resolve through the user groups (src/user-features.ts).
  const userGroups = createUserGroups({ db, events, clock, users });
  const personalLists = createPersonalLists({ db, events, clock, users, changes: shared.changes });
  const linkifiers = createLinkifiers({ db, events, users, changes: shared.changes });
  // Uploaded files and custom emoji images share one storage (the uploads folder of the data dir).
  const uploadStorage = localStorageFor(config);
  closers.push(uploadStorage.dispose);
  const customEmoji = createCustomEmoji({ db, storage: uploadStorage.storage, events, clock, users });
  const messages = new MessageService({
    store,
    users,
    streams: streamAccess,
    events,
    clock,
    logger,
    groups: userGroups,
    alertWords: personalLists,
    linkifiers,
    customEmoji,
  });
  // Stream changes post their announcements and notices through the messages service.
  const streams = new StreamService({
    store,
    events,
    clock,
    users,
    access: streamAccess,
    notices: messages,
    logger,
  });
  const uploads = new UploadService({
    store,
    storage: uploadStorage.storage,
    events,
    clock,
    messages,
    realmId: async () => (await users.realm()).id,
    maxFileUploadMib: config.maxFileUploadMib,
    urlSecret: shared.uploadUrlSecret,
  });
  // Attachment events when a message links its sender's uploads.
  messages.onSent(async (m) => {
    if (m.content.includes("/user_uploads/")) await uploads.noteMessage(m.sender.id, m.id);
  });
  // As in Zulip, new human users join the organization's default streams ("general").
  users.onUserCreated((user) => streams.subscribeToDefaultStreams(user));
  // Webhooks and owner notices post through the messages service (integrations may leave the topic blank).
  const sendMessage: SendMessage = (sender, message) =>
    messages.send(sender, { ...message, allowEmptyTopic: true });
  // The webhook delivery log: written in batches after the requests (src/domain/deliveries).
  // With a SQLite file store, the log has a file and a writer thread of its own (off this thread).
  const deliveries = new DeliveryLog(db, { ...DEFAULT_DELIVERY_LOG, ...config.deliveryLog }, clock, logger, {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  closers.push(() => deliveries.close());
  const webhooks = new WebhookService(
    registryOf(integrations),
    users,
    (sender, message) => sendMessage(sender, message),
    async (bot, integration) => {
      const config = await users.botConfig(bot.id);
      return config[`${integration}_secret`] ?? config["webhook_secret"];
    },
    clock,
    logger,
    {
      deliveries,
      rateLimiter: new WebhookRateLimiter(
        config.webhookRateLimit ?? null,
        clock,
        (id) => users.botConfig(id),
        shared.tokenBuckets,
      ),
      onceEvery: shared.onceEvery,
    },
  );
  const botStorage = new BotStorageService(db);
  const outgoing = new OutgoingWebhookService({
    db,
    users,
    messages,
    botStorage,
    clock,
    logger,
    config: config.outgoingWebhooks,
    realmUrl: () => config.externalUrl,
    zulipVersion: config.zulipVersion,
    zulipFeatureLevel: config.zulipFeatureLevel,
    onAttempt: outgoingAttemptLogger(
      deliveries,
      config.outgoingWebhooks,
      () => config.externalUrl,
      () => clock.now(),
    ),
  });
  outgoing.start();
  closers.push(() => outgoing.close());
  // Scheduled messages: the worker sends what is due, after a restart too (src/domain/scheduled).
  const scheduledMessages = new ScheduledMessagesService({
    db,
    events,
    clock,
    logger,
    users,
    streams: streamAccess,
    messages,
    pollIntervalMs: 1000,
  });
  scheduledMessages.start();
  closers.push(() => scheduledMessages.close());
  return {
    db,
    config,
    clock,
    logger,
    events,
    eventQueues,
    users,
    botLifecycle: new BotLifecycleService({
      users,
      usersRepo: new UsersRepo(db),
      botsRepo: new BotsRepo(db),
      events,
      streamName: async (name) => (await streamAccess.byName(name))?.name,
    }),
    webhooks,
    deliveries,
    streams,
    messages,
    uploads,
    customEmoji,
    drafts: new DraftsService({ db, events, clock, users, streams: streamAccess }),
    scheduledMessages,
    botStorage,
    outgoing,
    sessions: new SessionService(new SessionsRepo(db), users, clock, shared.failureLog),
    // Presence, typing, user status and the per-user state register reports (src/user-features.ts).
    ...createUserFeatures({
      db,
      events,
      clock,
      users,
      streams: streamAccess,
      userGroups,
      personalLists,
      linkifiers,
      presenceStore: shared.presence,
    }),
    shared,
    maxMessageId: (userId) => messages.maxMessageId(userId),
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
