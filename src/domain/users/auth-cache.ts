import type { User } from "./types.js";

/**
 * Recently authenticated users by lower-case email. Long-polling clients authenticate every few
 * seconds; entries live `ttlMs` so a change made by another process (PostgreSQL deployments with
 * several servers) is seen within that time. Changes made in this process drop the entry at once:
 * UsersRepo calls `invalidate` whenever it writes a user's key, activity or role, and lifecycle
 * code may call `UserService.invalidateCredentials(userId)` itself.
 */
export class AuthCache {
  private readonly entries = new Map<string, { user: User; expiresAt: number }>();
  private readonly byKey = new Map<string, { user: User; expiresAt: number }>();
  constructor(
    private readonly ttlMs = 5000,
    private readonly maxEntries = 10_000,
  ) {}

  get(email: string, now: number): User | undefined {
    const key = email.toLowerCase();
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.user;
  }

  set(user: User, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(user.email.toLowerCase(), { user, expiresAt: now + this.ttlMs });
  }

  /** The user of an API key alone (incoming webhooks authenticate by key), same lifetime. */
  getByKey(apiKey: string, now: number): User | undefined {
    const entry = this.byKey.get(apiKey);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.byKey.delete(apiKey);
      return undefined;
    }
    return entry.user;
  }

  setByKey(apiKey: string, user: User, now: number): void {
    if (this.byKey.size >= this.maxEntries) this.byKey.clear();
    this.byKey.set(apiKey, { user, expiresAt: now + this.ttlMs });
  }

  /** Drops every entry of this user (by id: the cached email or key may be an old one). */
  invalidate(userId: number): void {
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key);
    for (const [key, entry] of this.byKey) if (entry.user.id === userId) this.byKey.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.byKey.clear();
  }
}
