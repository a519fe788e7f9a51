import { StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import type { WebhookMessage } from "../../../integrations/kit/define-integration.js";
import { MAX_TOPIC_NAME_LENGTH } from "../messages/content.js";
import { RESOLVED_TOPIC_PREFIX } from "../events/narrow.js";
import type { User } from "../users/types.js";

/** What `resolve_topics` needs of the messages area (wired in src/services.ts). */
export interface TopicMover {
  /** The newest message `bot` sent to the topic of the stream (name or id), if any it can read. */
  newestFromBot(bot: User, stream: string | number, topic: string): Promise<number | undefined>;
  /** Renames the whole topic of `messageId`, as `bot` (propagate_mode change_all). */
  renameTopic(bot: User, messageId: number, topic: string): Promise<void>;
  /** The newest message of the topic, whoever sent it, as `bot` can read it. */
  newestInTopic(bot: User, stream: string | number, topic: string): Promise<number | undefined>;
  /** Replaces the content of `bot`'s message `messageId`, as `bot`. */
  editContent(bot: User, messageId: number, content: string): Promise<void>;
  /** Whether `bot` posted `messageId` as a status message of `object` (`edit_status_messages`). */
  isStatusMessage(bot: User, messageId: number, object: string): Promise<boolean>;
  /** Remembers `messageId` as a status message `bot` posted about `object`. */
  rememberStatusMessage(bot: User, messageId: number, object: string): Promise<void>;
  /** Forgets the status messages posted before `ms` (any bot's); returns how many. */
  forgetStatusMessagesBefore(ms: number): Promise<number>;
}

/**
 * How long a status message is remembered (`edit_status_messages`): a status change of an object
 * quiet for longer posts a new message instead of editing the old one. Old rows are deleted at
 * most once an hour, when a status message is remembered.
 */
export const STATUS_MESSAGE_RETENTION_MS = 90 * 24 * 3600 * 1000;
const STATUS_PRUNE_INTERVAL_MS = 3600 * 1000;

/**
 * A ticket's life in one topic, for the webhook pipeline's delivery stage: `resolve_topics` (the
 * topic resolved when its object closes, unresolved when it reopens, later events in the resolved
 * topic) and `edit_status_messages` (a status-only change edits the previous status message).
 * Nothing here fails a delivery but a missing stream: a refused rename or edit is logged and the
 * message is posted as usual.
 */
export class TopicLifecycle {
  /** When status messages past their retention were last deleted (never: 0). */
  private statusPrunedMs = 0;

  constructor(
    private readonly mover: TopicMover | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * `resolve_topics`, before a message is posted: the topic it goes to. A reopening unresolves the
   * object's resolved topic first; another event of an object whose topic is resolved (and not open
   * again under its plain name) goes to the resolved topic, so its whole life stays in one place.
   */
  async topicFor(bot: User, to: string | number, message: WebhookMessage): Promise<string> {
    const mover = this.mover;
    if (mover === undefined || message.topic.startsWith(RESOLVED_TOPIC_PREFIX)) return message.topic;
    const resolvedName = RESOLVED_TOPIC_PREFIX + message.topic;
    let resolved: number | undefined;
    let open: number | undefined;
    try {
      resolved = await mover.newestFromBot(bot, to, resolvedName);
      if (resolved === undefined) return message.topic;
      if (message.resolves !== false) open = await mover.newestFromBot(bot, to, message.topic);
    } catch {
      return message.topic; // a stream the bot cannot read, or none: posting says what is wrong
    }
    if (message.resolves === false) {
      await this.rename(bot, resolved, message.topic);
      return message.topic;
    }
    return open === undefined || open < resolved ? resolvedName : message.topic;
  }

  /**
   * `edit_status_messages`: edits the bot's previous status message of `object` in the topic to say
   * `content`, when it is still the topic's newest message (nobody, the bot included, posted since); its id,
   * or undefined when a new message must be posted (none, something came after it, or the edit was
   * refused: logged).
   */
  async editStatus(
    bot: User,
    to: string | number,
    topic: string,
    object: string,
    content: string,
  ): Promise<number | undefined> {
    const mover = this.mover;
    if (mover === undefined) return undefined;
    let newest: number | undefined;
    try {
      newest = await mover.newestInTopic(bot, to, topic);
      if (newest === undefined || !(await mover.isStatusMessage(bot, newest, object))) return undefined;
      await mover.editContent(bot, newest, content);
      return newest;
    } catch (err) {
      if (err instanceof StreamDoesNotExistError || err instanceof StreamIdDoesNotExistError) throw err;
      this.logger.warn("edit_status_messages: could not edit the status message; posting a new one", {
        bot: bot.id,
        messageId: newest,
        error: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  /**
   * Remembers a status message just posted, and forgets those past their retention; a failure is
   * logged (the next status is posted anew).
   */
  async remember(bot: User, messageId: number, object: string): Promise<void> {
    const topics = this.mover;
    try {
      await topics?.rememberStatusMessage(bot, messageId, object);
      const now = this.clock.now();
      if (topics !== undefined && now - this.statusPrunedMs >= STATUS_PRUNE_INTERVAL_MS) {
        this.statusPrunedMs = now;
        const forgotten = await topics.forgetStatusMessagesBefore(now - STATUS_MESSAGE_RETENTION_MS);
        if (forgotten > 0)
          this.logger.info("edit_status_messages: old status messages forgotten", { forgotten });
      }
    } catch (err) {
      this.logger.warn("edit_status_messages: could not remember the status message", {
        bot: bot.id,
        messageId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  /** Renames a topic for `resolve_topics`; a refusal is logged, never fails the delivery. */
  async rename(bot: User, messageId: number, topic: string): Promise<void> {
    try {
      await this.mover?.renameTopic(bot, messageId, topic);
    } catch (err) {
      this.logger.warn("resolve_topics: could not rename the topic", {
        bot: bot.id,
        messageId,
        topic,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}

/**
 * resolve_topics: a topic cut so that it still fits once resolved ("✔ " before it), as a topic
 * too long is cut when it is posted ("…" as three dots); otherwise its resolved name would be cut
 * too, and no longer be the same topic resolved.
 */
export function resolvableTopic(topic: string): string {
  if (topic.startsWith(RESOLVED_TOPIC_PREFIX)) return topic;
  const chars = Array.from(topic);
  const max = MAX_TOPIC_NAME_LENGTH - Array.from(RESOLVED_TOPIC_PREFIX).length;
  return chars.length > max ? chars.slice(0, max - 3).join("") + "..." : topic;
}
