import { onUserCredentialsChange } from "../../store/users-repo.js";
import type { Logger } from "../../lib/logger.js";
import type { RedisBackend } from "./connection.js";

/**
 * Auth-cache invalidation across processes (`serve --redis`): every credentials change this
 * process writes (UsersRepo's `onUserCredentialsChange` hook: key, activity, role) is published on
 * `<prefix>auth-invalidate`, and every process drops that user from its own cache when it hears
 * it. While Redis is away the cache's 5-second lifetime still bounds how stale an entry can be.
 * Returns a function that stops both directions.
 */
export async function shareAuthInvalidation(
  redis: RedisBackend,
  users: { invalidateCredentials(userId: number): void },
  logger: Logger,
): Promise<() => void> {
  const channel = `${redis.prefix}auth-invalidate`;
  const onMessage = (ch: string, message: string): void => {
    if (ch !== channel) return;
    const userId = Number(message);
    // Only this process's cache: calling the repo hook again would publish once more.
    if (Number.isInteger(userId)) users.invalidateCredentials(userId);
  };
  redis.subscriber.on("message", onMessage);
  await redis.subscriber.subscribe(channel);
  const unsubscribe = onUserCredentialsChange((userId) => {
    redis.client.publish(channel, String(userId)).catch((err: unknown) => {
      logger.warn("publishing an auth-cache invalidation failed", { user_id: userId, error: err as Error });
    });
  });
  return () => {
    unsubscribe();
    redis.subscriber.off("message", onMessage);
  };
}
