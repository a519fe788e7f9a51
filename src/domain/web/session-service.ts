import crypto from "node:crypto";
import type { Clock } from "../../clock.js";
import { AuthenticationFailedError } from "../../errors.js";
import { memoryFailureLog } from "../../infra/failure-log.js";
import type { FailureLog } from "../../infra/failure-log.js";
import { FailureThrottle } from "../users/login-throttle.js";
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

/**
 * Web-app sessions, as Zulip's web app has them: email + password → a session stored in the
 * database (it survives restarts), identified by a random cookie value, with its own CSRF token.
 * Failed sign-ins are limited per email (UserService: 5 in 30 minutes) and per client address
 * (20 in 10 minutes). Bots cannot sign in.
 */
export class SessionService {
  /** Failed sign-ins per client address (the per-email limit is the user service's). */
  private readonly throttle: FailureThrottle;

  constructor(
    private readonly repo: SessionsRepo,
    private readonly users: UserService,
    private readonly clock: Clock,
    /** Where failures are counted (shared by every process with `--redis`). */
    failureLog: FailureLog = memoryFailureLog(),
  ) {
    this.throttle = new FailureThrottle(clock, 20, 10 * 60 * 1000, "web-address", failureLog, true);
  }

  async signIn(email: string, password: string, clientAddress: string): Promise<WebSession> {
    await this.throttle.check(clientAddress);
    let user: User;
    try {
      user = await this.users.fetchApiKey(email, password);
      if (user.isBot) throw new AuthenticationFailedError();
    } catch (err) {
      if (err instanceof AuthenticationFailedError) await this.throttle.fail(clientAddress);
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
