import type { Clock } from "./clock.js";
import type { ServerConfig } from "./config.js";
import type { EventSink } from "./domain/events/event-sink.js";
import { EventQueueService } from "./domain/events/event-queue-service.js";
import { MemoryEventQueueStore } from "./domain/events/memory-queue-store.js";
import { EventGaps } from "./domain/events/event-gaps.js";
import { QueueResetsRepo } from "./store/queue-resets-repo.js";
import { SeenDeliveriesRepo } from "./store/seen-deliveries-repo.js";
import { deliveriesLocation } from "./store/deliveries-db.js";
import { WebhookStatusRepo } from "./store/webhook-status-repo.js";
import { SeenDeliveries } from "./domain/webhooks/seen-deliveries.js";
import { egressJsonFetcher } from "./domain/webhooks/service-api.js";
import { MessageService } from "./domain/messages/message-service.js";
import { BotStorageService } from "./domain/outgoing/bot-storage-service.js";
import { OutgoingWebhookService } from "./domain/outgoing/outgoing-webhook-service.js";
import { SigningSecretService } from "./domain/outgoing/signing-secrets.js";
import { CredentialRotationService } from "./domain/users/credential-rotation.js";
import { BotCredentialsRepo } from "./store/bot-credentials-repo.js";
import { EgressPolicy } from "./domain/egress/egress-policy.js";
import { Camo, loadCamoSecret } from "./domain/camo/camo.js";
import { parseAllowRule } from "./domain/egress/allow-rules.js";
import { StreamAccess } from "./domain/streams/access.js";
import { StreamService } from "./domain/streams/stream-service.js";
import { localStorageFor } from "./domain/uploads/storage.js";
import { UploadService } from "./domain/uploads/upload-service.js";
import { CustomEmojiService } from "./domain/emoji/custom-emoji-service.js";
import { RealmEmojiRepo } from "./store/realm-emoji-repo.js";
import { BotStorageRepo } from "./store/bot-storage-repo.js";
import { DraftsService } from "./domain/drafts/drafts-service.js";
import { MessageReportService } from "./domain/messages/message-reports.js";
import { RemindersService } from "./domain/scheduled/reminders-service.js";
import { RealmProfileService } from "./domain/settings/realm-profile.js";
import { RealmTopicsPolicyService } from "./domain/settings/realm-topics-policy.js";
import { GroupPermissionsService } from "./domain/user-groups/group-permissions.js";
import { RealmGroupSettingsRepo } from "./store/realm-group-settings-repo.js";
import { SavedSnippetsService } from "./domain/saved-snippets/saved-snippets-service.js";
import { InviteService } from "./domain/invites/invite-service.js";
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
import { integrationFolder } from "../integrations/kit/index.js";
import { EMBEDDABLE_BOT_NAMES, findBot } from "../bots/index.js";
import type { BotRegistry } from "./domain/outgoing/bot-registry.js";
import { templateRenderer } from "../integrations/template/render-pool.js";
import { renderTemplates } from "../integrations/template/index.js";
import { templateModuleFiles } from "../integrations/template/export.js";
import type { TemplateModuleBuilder } from "./domain/deliveries/delivery-service.js";
import type { TemplatePreview } from "./domain/webhooks/template-preview.js";
import type { Logger } from "./lib/logger.js";
import type { Db } from "./store/db.js";
import { repoStore, transactional } from "./store/repos.js";
import { storeHealth } from "./store/store-health.js";
import { OutgoingRepo } from "./store/outgoing-repo.js";
import { OutgoingEndpointsRepo } from "./store/outgoing-endpoints-repo.js";
import { SigningSecretsRepo } from "./store/signing-secrets-repo.js";
import type { StoreHealth } from "./store/store-health.js";
import { DraftsRepo } from "./store/drafts-repo.js";
import { InvitesRepo } from "./store/invites-repo.js";
import { SavedSnippetsRepo } from "./store/saved-snippets-repo.js";
import { ScheduledMessagesRepo } from "./store/scheduled-messages-repo.js";
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
  /** Whether the store answers (`GET /ready`). */
  storeHealth: StoreHealth;
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
  /** The folder of an integration's doc.md and fixtures (bundled, or loaded with --integrations-path). */
  integrationFolder: (name: string) => string;
  /** The template integration's renderer (POST /integrations/template/preview). */
  templatePreview: TemplatePreview;
  /** A template bot's templates as an integration module's files (chat-server export-template). */
  templateModule: TemplateModuleBuilder;
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
  /** Saved snippets (/saved_snippets). */
  savedSnippets: SavedSnippetsService;
  /** Message reports and the realm's moderation-request channel. */
  messageReports: MessageReportService;
  /** Message reminders (/reminders), delivered by the scheduled messages' worker. */
  reminders: RemindersService;
  /** The realm's `topics_policy` (empty topics in channels). */
  topicsPolicy: RealmTopicsPolicyService;
  realmProfile: RealmProfileService;
  /** Group-based permission settings (realm settings through PATCH /realm; streams' and groups' own). */
  groupPermissions: GroupPermissionsService;
  /** Invitation links and the realm's invite policy (/invites, /join). */
  invites: InviteService;
  /** Scheduled messages (/scheduled_messages) and their delivery worker (`tick()` in tests). */
  scheduledMessages: ScheduledMessagesService;
  /** Bots' key-value storage (`/api/v1/bot_storage`, embedded bots). */
  botStorage: BotStorageService;
  /** Outgoing webhooks and embedded bots: triggers, durable delivery, retries (`tick()` in tests). */
  outgoing: OutgoingWebhookService;
  /** Bots' Standard Webhooks signing secrets and their rotation. */
  signingSecrets: SigningSecretService;
  /** Rotation with an overlap of bots' API keys and outgoing tokens. */
  credentialRotation: CredentialRotationService;
  /** Which URLs the server's own requests may reach (outgoing webhooks, replays; src/domain/egress). */
  egress: EgressPolicy;
  /** The image proxy: signs remote image URLs in messages and fetches them (src/domain/camo). */
  camo: Camo;
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
  // A shared store's fan-out can fail part way: the affected queues are invalidated (event-gaps.ts).
  const gaps =
    shared.queueStore === undefined
      ? undefined
      : new EventGaps(shared.queueStore, new QueueResetsRepo(db), clock, logger);
  const eventQueues = new EventQueueService(queueStore, config.events, clock, logger, gaps);
  eventQueues.startGc();
  const events: EventSink = eventQueues;
  // The bundled bots, as embedded bots and bot creation see them.
  const bots: BotRegistry = { find: findBot, isEmbeddable: (name) => EMBEDDABLE_BOT_NAMES.includes(name) };
  const egress = new EgressPolicy({ allow: (config.outgoingWebhookAllow ?? []).map(parseAllowRule) });
  const camo = new Camo(loadCamoSecret(config.dataDir), egress);
  const botCredentials = new BotCredentialsRepo(db);
  const users = new UserService(
    new UsersRepo(db),
    events,
    clock,
    () => config.botDomain,
    (name) => bots.isEmbeddable(name),
    shared.failureLog,
    {
      egress,
      maxBotsPerUser: config.maxBotsPerUser,
      oldApiKeys: botCredentials,
    },
  );
  const closers: (() => Promise<void> | void)[] = [() => eventQueues.close()];
  const store = repoStore(db);
  const streamAccess = new StreamAccess(store.read.streams);
  // `@*group*` mentions resolve through the user groups (src/user-features.ts).
  const userGroups = createUserGroups({ db, events, clock, users });
  // Group-based permission settings of the realm, streams and groups (Zulip's can_*_group).
  const groupPermissions = new GroupPermissionsService({
    groups: userGroups,
    users,
    realmSettings: new RealmGroupSettingsRepo(db),
    events,
  });
  userGroups.usePermissions(groupPermissions);
  const personalLists = createPersonalLists({ db, events, clock, users, changes: shared.changes });
  const linkifiers = createLinkifiers({ db, events, users, changes: shared.changes, logger });
  // Uploaded files and custom emoji images share one storage (the uploads folder of the data dir).
  const uploadStorage = localStorageFor(config);
  closers.push(uploadStorage.dispose);
  const customEmoji = new CustomEmojiService({
    repo: new RealmEmojiRepo(db),
    storage: uploadStorage.storage,
    events,
    clock,
    users,
  });
  const messages = new MessageService({
    store,
    users,
    streams: streamAccess,
    events,
    clock,
    logger,
    groups: userGroups,
    permissions: groupPermissions,
    alertWords: personalLists,
    linkifiers,
    customEmoji,
    proxyImage: (url) => camo.path(url),
    // The uploads service is made below, before any message is sent.
    uploadedImages: (pathIds) => uploads.uploadedImages(pathIds),
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
    permissions: groupPermissions,
  });
  const uploads: UploadService = new UploadService({
    store,
    storage: uploadStorage.storage,
    events,
    clock,
    messages,
    realmId: async () => (await users.realm()).id,
    maxFileUploadMib: config.maxFileUploadMib,
    maxStoragePerUserMib: config.maxUploadStoragePerUserMib,
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
  const deliveries = new DeliveryLog(
    deliveriesLocation(db, config),
    { ...DEFAULT_DELIVERY_LOG, ...config.deliveryLog },
    clock,
    logger,
  );
  closers.push(() => deliveries.close());
  const webhookStatus = new WebhookStatusRepo(db);
  const webhooks = new WebhookService(
    registryOf([...integrations, ...(config.externalIntegrations ?? []).map((e) => e.integration)]),
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
      seenDeliveries: new SeenDeliveries(new SeenDeliveriesRepo(db), clock),
      // Integration modules that render templates (an exported template bot): the template integration's renderer.
      templates: renderTemplates,
      // Integrations that look things up in their service's API (Notion): GETs under the egress policy.
      fetchJson: egressJsonFetcher(egress),
      topics: {
        async newestFromBot(bot, stream, topic) {
          const found = await messages.fetch(bot, {
            anchor: "newest",
            numBefore: 1,
            numAfter: 0,
            includeAnchor: true,
            narrow: [
              { operator: "stream", operand: stream, negated: false },
              { operator: "topic", operand: topic, negated: false },
              { operator: "sender", operand: bot.id, negated: false },
            ],
            present: { applyMarkdown: false, clientGravatar: true },
          });
          const newest = found.messages[found.messages.length - 1];
          return newest === undefined ? undefined : Number(newest["id"]);
        },
        renameTopic: (bot, messageId, topic) =>
          messages.edit(bot, messageId, { topic, propagateMode: "change_all" }),
        async newestInTopic(bot, stream, topic) {
          const found = await messages.fetch(bot, {
            anchor: "newest",
            numBefore: 1,
            numAfter: 0,
            includeAnchor: true,
            narrow: [
              { operator: "stream", operand: stream, negated: false },
              { operator: "topic", operand: topic, negated: false },
            ],
            present: { applyMarkdown: false, clientGravatar: true },
          });
          const newest = found.messages[found.messages.length - 1];
          return newest === undefined ? undefined : Number(newest["id"]);
        },
        editContent: (bot, messageId, content) =>
          messages.edit(bot, messageId, { content, propagateMode: "change_one" }),
        isStatusMessage: (bot, messageId, object) => webhookStatus.has(bot.id, messageId, object),
        rememberStatusMessage: (bot, messageId, object) =>
          webhookStatus.add(bot.id, messageId, object, clock.now()),
        forgetStatusMessagesBefore: (ms) => webhookStatus.deleteBefore(ms),
      },
    },
  );
  const botStorage = new BotStorageService(transactional(db, (q) => new BotStorageRepo(q)));
  const signingSecrets = new SigningSecretService(new SigningSecretsRepo(db), clock);
  const botLifecycle = new BotLifecycleService({
    users,
    usersRepo: new UsersRepo(db),
    botsRepo: new BotsRepo(db),
    events,
    streamName: async (name) => (await streamAccess.byName(name))?.name,
  });
  const credentialRotation = new CredentialRotationService({
    lifecycle: botLifecycle,
    users,
    usersRepo: new UsersRepo(db),
    botsRepo: new BotsRepo(db),
    credentials: botCredentials,
    events,
    clock,
  });
  const outgoing = new OutgoingWebhookService({
    jobs: new OutgoingRepo(db),
    endpoints: new OutgoingEndpointsRepo(db),
    users,
    messages,
    botStorage,
    bots,
    clock,
    logger,
    config: config.outgoingWebhooks,
    egress,
    realmUrl: () => config.externalUrl,
    zulipVersion: config.zulipVersion,
    zulipFeatureLevel: config.zulipFeatureLevel,
    signing: signingSecrets,
    tokens: credentialRotation,
    onAttempt: outgoingAttemptLogger(
      deliveries,
      () => config.externalUrl,
      () => clock.now(),
    ),
  });
  outgoing.start();
  closers.push(() => outgoing.close());
  // Scheduled messages: the worker sends what is due, after a restart too (src/domain/scheduled).
  const scheduledRepo = new ScheduledMessagesRepo(db);
  const scheduledMessages = new ScheduledMessagesService({
    repo: scheduledRepo,
    events,
    clock,
    logger,
    users,
    streams: streamAccess,
    permissions: groupPermissions,
    messages,
    pollIntervalMs: 1000,
  });
  scheduledMessages.start();
  closers.push(() => scheduledMessages.close());
  return {
    storeHealth: storeHealth(db),
    config,
    clock,
    logger,
    events,
    eventQueues,
    users,
    botLifecycle,
    webhooks,
    integrationFolder: (name) =>
      config.externalIntegrations?.find((e) => e.integration.name === name)?.folder ??
      integrationFolder(name),
    templatePreview: (templates, sample) => templateRenderer.render(templates, sample),
    templateModule: templateModuleFiles,
    deliveries,
    streams,
    messages,
    uploads,
    customEmoji,
    drafts: new DraftsService({
      repo: transactional(db, (q) => new DraftsRepo(q)),
      events,
      clock,
      users,
      streams: streamAccess,
    }),
    savedSnippets: new SavedSnippetsService({ repo: new SavedSnippetsRepo(db), events, clock }),
    topicsPolicy: new RealmTopicsPolicyService({ events, users, realmRepo: new UsersRepo(db) }),
    realmProfile: new RealmProfileService({ events, users, realmRepo: new UsersRepo(db) }),
    groupPermissions,
    reminders: new RemindersService({
      repo: scheduledRepo,
      events,
      clock,
      realmUrl: () => config.externalUrl,
      messages,
    }),
    messageReports: new MessageReportService({
      events,
      realmUrl: () => config.externalUrl,
      users,
      realmRepo: new UsersRepo(db),
      streams: streamAccess,
      messages,
    }),
    invites: new InviteService({
      repo: new InvitesRepo(db),
      clock,
      users,
      realmUrl: () => config.externalUrl,
      permissions: groupPermissions,
    }),
    scheduledMessages,
    botStorage,
    outgoing,
    signingSecrets,
    credentialRotation,
    egress,
    camo,
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
