import { foundation } from "./001-foundation.js";
import { streams } from "./002-streams.js";
import { messages } from "./003-messages.js";
import { outgoingWebhooks } from "./004-outgoing-webhooks.js";
import { indexes } from "./005-indexes.js";
import { reactions } from "./006-reactions.js";
import { apiKeyLookup } from "./007-api-key-lookup.js";
import { webSessions } from "./008-web-sessions.js";
import { messageSearch } from "./011-message-search.js";
import { attachments } from "./012-attachments.js";
import { streamManagement } from "./013-stream-management.js";
import { userStatus } from "./015-user-status.js";
import { userGroups } from "./016-user-groups.js";
import { alertWordsMutedUsers } from "./017-alert-words-muted-users.js";
import { linkifiers } from "./018-linkifiers.js";
import { webhookDeliveries } from "./020-webhook-deliveries.js";
import { sparseUnread } from "./021-sparse-unread.js";
import { sparseUnreadData } from "./022-sparse-unread-data.js";
import { realmEmoji } from "./023-realm-emoji.js";
import { userGroupSubgroups } from "./024-user-group-subgroups.js";
import { draftsScheduledMessages } from "./025-drafts-scheduled-messages.js";
import { batchedSearchIndex } from "./026-batched-search-index.js";
import { eventQueueResets } from "./040-event-queue-resets.js";
import { invites } from "./060-invites.js";
import { pushDeviceTokens } from "./045-push-device-tokens.js";
import { submessages } from "./046-submessages.js";
import { seenDeliveries } from "./065-seen-deliveries.js";
import { savedSnippets } from "./095-saved-snippets.js";
import { moderationRequestChannel } from "./096-moderation-request-channel.js";
import { messageReminders } from "./097-message-reminders.js";
import { realmTopicsPolicy } from "./098-realm-topics-policy.js";
import { groupPermissionSettings } from "./110-group-permission-settings.js";
import { streamTopicsPolicy } from "./111-stream-topics-policy.js";
import { webhookStatusMessagesAge } from "./112-webhook-status-messages-age.js";
import { canInviteUsersGroup } from "./113-can-invite-users-group.js";
import { streamCreator } from "./114-stream-creator.js";
import { userDirectoryVersion } from "./115-user-directory-version.js";
import { outgoingDeliveryStates } from "./075-outgoing-delivery-states.js";
import type { Migration } from "./types.js";
import { botSigningSecrets } from "./070-bot-signing-secrets.js";
import { botCredentialOverlap } from "./100-bot-credential-overlap.js";
import { webhookStatusMessages } from "./105-webhook-status-messages.js";

/** Every migration, in order. A new one is one file and one line here. */
export const migrations: readonly Migration[] = [
  foundation,
  streams,
  messages,
  outgoingWebhooks,
  indexes,
  reactions,
  apiKeyLookup,
  webSessions,
  messageSearch,
  attachments,
  streamManagement,
  userStatus,
  userGroups,
  alertWordsMutedUsers,
  linkifiers,
  webhookDeliveries,
  sparseUnread,
  sparseUnreadData,
  realmEmoji,
  userGroupSubgroups,
  draftsScheduledMessages,
  batchedSearchIndex,
  eventQueueResets,
  invites,
  pushDeviceTokens,
  submessages,
  seenDeliveries,
  savedSnippets,
  moderationRequestChannel,
  messageReminders,
  realmTopicsPolicy,
  outgoingDeliveryStates,
  botSigningSecrets,
  botCredentialOverlap,
  webhookStatusMessages,
  groupPermissionSettings,
  streamTopicsPolicy,
  webhookStatusMessagesAge,
  canInviteUsersGroup,
  streamCreator,
  userDirectoryVersion,
];
