import crypto from "node:crypto";
import type { Clock } from "../../clock.js";
import { AuthenticationFailedError, RateLimitedError } from "../../errors.js";
import type { SessionsRepo } from "../../store/sessions-repo.js";
import type { User } from "../users/types.js";
import type { UserService } from "../users/user-service.js";

/** Zulip's SESSION_COOKIE_AGE: two weeks. */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

export interface WebSession {
  /** The secret that goes into the cookie (only its hash is stored). */
  id: string;
  csrfToken: string;
  user: User;
  expiresMs: number;
}

/** A random URL-safe secret of 32 bytes. */
export function newSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

function hashId(id: string): string {
  return crypto.createHash("sha256").update(id).digest("hex");
}

/** Failed sign-ins per client address (the per-email limit is the user service's). */
class AddressThrottle {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly clock: Clock,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}
  check(address: string): void {
    const now = this.clock.now();
    const recent = (this.failures.get(address) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length === 0) this.failures.delete(address);
    else this.failures.set(address, recent);
    const oldest = recent[0];
    if (recent.length >= this.max && oldest !== undefined) {
      throw new RateLimitedError(Math.ceil((oldest + this.windowMs - now) / 1000));
    }
  }
  fail(address: string): void {
    if (this.failures.size > 100_000) this.failures.clear();
    const list = this.failures.get(address) ?? [];
    list.push(this.clock.now());
    this.failures.set(address, list);
  }
}

/**
 * Web-app sessions, as Zulip's web app has them: email + password → a session stored in the
 * database (it survives restarts), identified by a random cookie value, with its own CSRF token.
 * Failed sign-ins are limited per email (UserService: 5 in 30 minutes) and per client address
 * (20 in 10 minutes). Bots cannot sign in.
 */
export class SessionService {
  private readonly throttle: AddressThrottle;

  constructor(
    private readonly repo: SessionsRepo,
    private readonly users: UserService,
    private readonly clock: Clock,
  ) {
    this.throttle = new AddressThrottle(clock, 20, 10 * 60 * 1000);
  }

  async signIn(email: string, password: string, clientAddress: string): Promise<WebSession> {
    this.throttle.check(clientAddress);
    let user: User;
    try {
      user = await this.users.fetchApiKey(email, password);
      if (user.isBot) throw new AuthenticationFailedError();
    } catch (err) {
      if (err instanceof AuthenticationFailedError) this.throttle.fail(clientAddress);
      throw err;
    }
    const now = this.clock.now();
    const session: WebSession = {
      id: newSecret(),
      csrfToken: newSecret(),
      user,
      expiresMs: now + SESSION_LIFETIME_MS,
    };
    await this.repo.deleteExpired(now);
    await this.repo.insert({
      idHash: hashId(session.id),
      userId: user.id,
      csrfToken: session.csrfToken,
      createdMs: now,
      expiresMs: session.expiresMs,
    });
    return session;
  }

  /** The live session for a cookie value, or undefined (unknown, expired, or the user deactivated). */
  async lookUp(id: string): Promise<WebSession | undefined> {
    if (id === "" || id.length > 100) return undefined;
    const row = await this.repo.byIdHash(hashId(id));
    if (row === undefined) return undefined;
    if (row.expiresMs <= this.clock.now()) {
      await this.repo.delete(row.idHash);
      return undefined;
    }
    const user = await this.users.byId(row.userId);
    if (user === undefined || !user.isActive) return undefined;
    return { id, csrfToken: row.csrfToken, user, expiresMs: row.expiresMs };
  }

  async signOut(id: string): Promise<void> {
    await this.repo.delete(hashId(id));
  }
}
