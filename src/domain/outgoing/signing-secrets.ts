/**
 * Bots' Standard Webhooks signing secrets: every outgoing webhook is signed with each secret still
 * valid (src/lib/standard-webhooks.ts); a rotation adds a new secret and keeps the old ones valid until
 * a time the owner sets, or until the owner retires them.
 */
import type { Clock } from "../../clock.js";
import type { SigningSecretsRepo } from "../../store/signing-secrets-repo.js";
import type { SigningSecretRow } from "../../store/signing-secrets-repo.js";
import {
  ED25519_SECRET_PREFIX,
  generateEd25519KeyPair,
  generateSecret,
  signHeaders,
} from "../../lib/standard-webhooks.js";
import type { StandardWebhookHeaders } from "../../lib/standard-webhooks.js";

export type { SigningSecretRow } from "../../store/signing-secrets-repo.js";

/**
 * How a bot's webhooks are signed: HMAC-SHA256 with a shared `whsec_` secret (`v1`), or Ed25519
 * (`v1a`) with a `whsk_` secret key the server keeps, verified with its `whpk_` public key.
 */
export type SigningAlgorithm = "hmac-sha256" | "ed25519";
export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = ["hmac-sha256", "ed25519"];

export function algorithmOf(secret: string): SigningAlgorithm {
  return secret.startsWith(ED25519_SECRET_PREFIX) ? "ed25519" : "hmac-sha256";
}

function newSecret(algorithm: SigningAlgorithm): string {
  return algorithm === "ed25519" ? generateEd25519KeyPair().secretKey : generateSecret();
}

/** How long a bot's secrets are kept in memory at most (another process's rotation shows after it). */
const CACHE_MS = 10_000;

export class SigningSecretService {
  /** Per bot: its valid secrets (a load in flight is shared) and until when they hold. */
  private readonly cache = new Map<number, { secrets: Promise<string[]>; until: number }>();

  constructor(
    private readonly repo: SigningSecretsRepo,
    private readonly clock: Clock,
  ) {}

  /** The bot's valid secrets, newest first; a bot without one gets its first secret here. */
  async secrets(botId: number): Promise<SigningSecretRow[]> {
    const now = this.clock.now();
    const rows = await this.repo.valid(botId, now);
    if (rows.some((r) => r.retiresAt === null)) return rows;
    await this.repo.rotate(botId, generateSecret(), now, now);
    return this.repo.valid(botId, now);
  }

  /**
   * The Standard Webhooks headers for one request (signed with every valid secret). The secrets are
   * read once per bot and kept until the next one retires or {@link CACHE_MS} passes (a rotation in
   * this process clears them at once), so deliveries do not read (or write) the store each time.
   */
  async headers(botId: number, id: string, body: string): Promise<StandardWebhookHeaders> {
    const now = this.clock.now();
    let cached = this.cache.get(botId);
    if (cached === undefined || cached.until <= now) {
      const loading = this.secretsForDelivery(botId, now).then((rows) => ({
        secrets: rows.map((r) => r.secret),
        until: Math.min(now + CACHE_MS, ...rows.map((r) => r.retiresAt ?? Infinity)),
      }));
      const shared = loading.then((l) => l.secrets);
      shared.catch(() => undefined); // its failure is thrown below to this caller (and to the waiters)
      this.cache.set(botId, { secrets: shared, until: Infinity });
      try {
        const loaded = await loading;
        cached = { secrets: Promise.resolve(loaded.secrets), until: loaded.until };
        this.cache.set(botId, cached);
      } catch (err) {
        this.cache.delete(botId);
        throw err;
      }
    }
    return signHeaders(await cached.secrets, id, Math.floor(now / 1000), body);
  }

  /**
   * The valid secrets without awaiting a write: a delivery may run while the store has a transaction
   * open that waits for it (SQLite queues writes behind it), so a bot's first secret is made in memory
   * and stored in the background.
   */
  private async secretsForDelivery(botId: number, now: number): Promise<SigningSecretRow[]> {
    const rows = await this.repo.valid(botId, now);
    if (rows.some((r) => r.retiresAt === null)) return rows;
    const secret = generateSecret();
    this.repo.rotate(botId, secret, now, now).catch(() => this.cache.delete(botId));
    return [{ id: 0, secret, createdAt: now, retiresAt: null }, ...rows];
  }

  /**
   * A new current secret; the old ones stay valid until `overlapUntil` (ms; now or earlier: at once).
   * `algorithm` switches the scheme (an Ed25519 key pair instead of an HMAC secret, or back); by
   * default the current secret's. During the overlap the old and new sign side by side (`v1` and `v1a`).
   */
  async rotate(
    botId: number,
    overlapUntil: number,
    algorithm?: SigningAlgorithm,
  ): Promise<SigningSecretRow[]> {
    const current = (await this.secrets(botId)).find((r) => r.retiresAt === null);
    const now = this.clock.now();
    const chosen = algorithm ?? (current === undefined ? "hmac-sha256" : algorithmOf(current.secret));
    await this.repo.rotate(botId, newSecret(chosen), now, Math.max(now, overlapUntil));
    this.cache.delete(botId);
    return this.repo.valid(botId, now);
  }

  /** Ends a rotation's overlap now. */
  async retireOld(botId: number): Promise<SigningSecretRow[]> {
    await this.repo.retireOld(botId, this.clock.now());
    this.cache.delete(botId);
    return this.secrets(botId);
  }
}
