import type Router from "@koa/router";
import type { Services } from "../../services.js";
import type { AppState } from "../state.js";
import { authRouter } from "./auth.js";
import { botStorageRouter } from "./bot-storage.js";
import { botsRouter } from "./bots.js";
import { botSigningRouter } from "./bot-signing.js";
import { botCredentialsRouter } from "./bot-credentials.js";
import { deliveriesRouter } from "./deliveries.js";
import { templatePreviewRouter } from "./template-preview.js";
import { emojiDataRouter } from "./emoji-data.js";
import { eventsRouter } from "./events.js";
import { externalRouter } from "./external.js";
import { flagsRouter } from "./flags.js";
import { healthRouter } from "./health.js";
import { integrationDocsRouter } from "./integration-docs.js";
import { invitesRouter, joinRouter } from "./invites.js";
import { realmRouter } from "./realm.js";
import { messagesRouter } from "./messages.js";
import { presenceRouter } from "./presence.js";
import { pushTokensRouter } from "./push-tokens.js";
import { userGroupsRouter } from "./user-groups.js";
import { userGroupSubgroupsRouter } from "./user-group-subgroups.js";
import { draftsRouter } from "./drafts.js";
import { savedSnippetsRouter } from "./saved-snippets.js";
import { remindersRouter } from "./reminders.js";
import { scheduledMessagesRouter } from "./scheduled-messages.js";
import { usersAdminRouter } from "./users-admin.js";
import { personalListsRouter } from "./personal-lists.js";
import { externalContentRouter } from "./external-content.js";
import { linkifiersRouter } from "./linkifiers.js";
import { emojiImagesRouter, realmEmojiRouter } from "./realm-emoji.js";
import { userSettingsRouter } from "./user-settings.js";
import { serverSettingsRouter } from "./server-settings.js";
import { settingsRouter } from "./settings.js";
import { streamsRouter } from "./streams.js";
import { subscriptionsRouter } from "./subscriptions.js";
import { uploadFilesRouter, uploadsRouter } from "./uploads.js";
import { usersRouter } from "./users.js";

/** Routers that need no Basic auth (each may authenticate in its own way, like webhooks). */
export function publicRouters(services: Services): Router<AppState>[] {
  return [
    healthRouter(services),
    serverSettingsRouter(services),
    authRouter(services),
    externalRouter(services.webhooks),
    // The image proxy: the URL's signature is its authorisation (Zulip's camo).
    externalContentRouter(services),
    // Uploaded files: by web session or Basic auth, checked in the route.
    uploadFilesRouter(services),
    // Custom emoji images: public, as in Zulip.
    emojiImagesRouter(services),
    joinRouter(services),
    emojiDataRouter(),
  ];
}

/** Routers behind HTTP Basic auth. A new resource adds one line here. */
export function authenticatedRouters(services: Services): Router<AppState>[] {
  return [
    usersRouter(services),
    eventsRouter(services),
    messagesRouter(services),
    flagsRouter(services),
    streamsRouter(services),
    subscriptionsRouter(services),
    uploadsRouter(services),
    settingsRouter(services),
    botStorageRouter(services),
    botsRouter(services),
    botSigningRouter(services),
    botCredentialsRouter(services),
    presenceRouter(services),
    userGroupsRouter(services),
    userGroupSubgroupsRouter(services),
    draftsRouter(services),
    savedSnippetsRouter(services),
    remindersRouter(services),
    scheduledMessagesRouter(services),
    usersAdminRouter(services),
    personalListsRouter(services),
    linkifiersRouter(services),
    realmEmojiRouter(services),
    userSettingsRouter(services),
    integrationDocsRouter(services),
    deliveriesRouter(services),
    templatePreviewRouter(services.templatePreview),
    invitesRouter(services),
    realmRouter(services),
    pushTokensRouter(services),
  ];
}
