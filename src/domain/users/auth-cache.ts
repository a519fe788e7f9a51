import type { User } from "./types.js";

/**
 * Recently authenticated users, by lower-case email and by API key. Long-polling clients authenticate every few
 * seconds; entries live `ttlMs` so a change made by another process (PostgreSQL deployments with
 * several servers) is seen within that time. Changes made in this process drop the entry at once:
 * UsersRepo calls `invalidate` whenever it writes a user's key, activity or role, and lifecycle
 * code may call `UserService.invalidateCredentials(userId)` itself.
 */
type Entries = Map<string, { user: User; expiresAt: number }>;

export class AuthCache {
  /** By lower-case email (HTTP Basic, sessions). */
  private readonly entries: Entries = new Map();
  /** By API key alone (incoming webhooks authenticate by key). */
  private readonly byKey: Entries = new Map();
  constructor(
    private readonly ttlMs = 5000,
    private readonly maxEntries = 10_000,
  ) {}

  get(email: string, now: number): User | undefined {
    return this.lookup(this.entries, email.toLowerCase(), now);
  }

  set(user: User, now: number): void {
    this.store(this.entries, user.email.toLowerCase(), user, now);
  }

  /** The user of an API key, same lifetime. */
  getByKey(apiKey: string, now: number): User | undefined {
    return this.lookup(this.byKey, apiKey, now);
  }

  setByKey(apiKey: string, user: User, now: number): void {
    this.store(this.byKey, apiKey, user, now);
  }

  private lookup(map: Entries, key: string, now: number): User | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      map.delete(key);
      return undefined;
    }
    return entry.user;
  }

  private store(map: Entries, key: string, user: User, now: number): void {
    if (map.size >= this.maxEntries) map.clear();
    map.set(key, { user, expiresAt: now + this.ttlMs });
  }

  /** Drops every entry of this user (by id: the cached email or key may be an old one). */
  invalidate(userId: number): void {
    for (const map of [this.entries, this.byKey]) {
      for (const [key, entry] of map) if (entry.user.id === userId) map.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.byKey.clear();
  }
}
