import type { Clock } from "../../clock.js";
import { BadRequestError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import type { User } from "../users/types.js";

/** Zulip's presence constants (register reports them as server_presence_*). */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 140;
/** Users not seen for this long are left out of presence answers, as Zulip does. */
const PRESENCE_HORIZON_SECONDS = 14 * 24 * 3600;

export type PresenceStatus = "active" | "idle";

/** One user's presence as Zulip stores it (UserPresence): integer seconds. */
export interface Presence {
  userId: number;
  /** null: connected but never active. */
  lastActive: number | null;
  lastConnected: number;
}

/** Zulip's legacy per-client presence dict (`{client, status, timestamp, pushable}`). */
export interface ClientPresence {
  client: string;
  status: PresenceStatus;
  timestamp: number;
  pushable: boolean;
}

/** The client name legacy presence dicts carry (Zulip merges every client into one row). */
const CLIENT = "website";

/** How a legacy client sees one presence row: active while active recently enough. */
export function legacyPresence(p: Presence): ClientPresence {
  const active =
    p.lastActive !== null && p.lastActive + PRESENCE_OFFLINE_THRESHOLD_SECONDS >= p.lastConnected;
  return {
    client: CLIENT,
    status: active ? "active" : "idle",
    timestamp: active && p.lastActive !== null ? p.lastActive : p.lastConnected,
    pushable: false,
  };
}

/** `presences` of register and POST /users/me/presence: keyed by email, or by user id when slim. */
export function presencesWire(
  rows: readonly Presence[],
  emailOf: (userId: number) => string | undefined,
  slim: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of rows) {
    if (slim) {
      out[String(p.userId)] = {
        ...(p.lastActive === null ? {} : { active_timestamp: p.lastActive }),
        idle_timestamp: p.lastConnected,
      };
      continue;
    }
    const email = emailOf(p.userId);
    if (email === undefined) continue;
    const legacy = legacyPresence(p);
    const { pushable: _pushable, ...aggregated } = legacy;
    out[email] = { [CLIENT]: legacy, aggregated };
  }
  return out;
}

/**
 * Where presence rows live: this process's memory (one process), or Redis (`serve --redis`,
 * src/infra/redis/redis-presence.ts) so that every process sees every user's pings.
 */
export interface PresenceStore {
  /**
   * Records a ping at `nowSec` in one atomic step: `lastConnected` becomes now, `lastActive` too
   * when `active`. Returns the row as it was before (undefined when the user was never seen).
   */
  record(userId: number, nowSec: number, active: boolean): Promise<Presence | undefined>;
  /** Every row, any order. */
  all(): Promise<Presence[]>;
  of(userId: number): Promise<Presence | undefined>;
  forget(userId: number): Promise<void>;
}

/** The one-process store. */
export function memoryPresenceStore(): PresenceStore {
  const rows = new Map<number, Presence>();
  return {
    record(userId, nowSec, active) {
      const before = rows.get(userId);
      rows.set(userId, {
        userId,
        lastConnected: nowSec,
        lastActive: active ? nowSec : (before?.lastActive ?? null),
      });
      return Promise.resolve(before);
    },
    all: () => Promise.resolve([...rows.values()]),
    of: (userId) => Promise.resolve(rows.get(userId)),
    forget(userId) {
      rows.delete(userId);
      return Promise.resolve();
    },
  };
}

/**
 * Presence (Zulip's UserPresence): clients ping POST /users/me/presence about once a minute with
 * "active" or "idle". Held in memory (a restart forgets who was online, which clients repair within
 * one ping interval): this process's, or Redis's when several processes serve the organization. A
 * `presence` event goes to the realm when a user comes online or becomes active, as Zulip sends it.
 */
export class PresenceService {
  constructor(
    private readonly events: EventSink,
    private readonly clock: Clock,
    private readonly realmUserIds: () => Promise<number[]>,
    private readonly store: PresenceStore = memoryPresenceStore(),
  ) {}

  private now(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  /** Records a ping; sends the realm a `presence` event when the user's visible status changed. */
  async update(user: User, status: string): Promise<void> {
    if (status !== "active" && status !== "idle") {
      throw new BadRequestError(`Invalid status: ${status}`);
    }
    const now = this.now();
    const before = await this.store.record(user.id, now, status === "active");
    const next: Presence = {
      userId: user.id,
      lastConnected: now,
      lastActive: status === "active" ? now : (before?.lastActive ?? null),
    };
    const wasOffline =
      before === undefined || before.lastConnected + PRESENCE_OFFLINE_THRESHOLD_SECONDS < now;
    const becameActive =
      before !== undefined && status === "active" && legacyPresence(before).status === "idle";
    if (!wasOffline && !becameActive) return;
    this.events.send(
      {
        type: "presence",
        user_id: user.id,
        email: user.email,
        server_timestamp: now,
        presence: { [CLIENT]: legacyPresence(next) },
      },
      await this.realmUserIds(),
    );
  }

  /** Presence rows seen within Zulip's horizon (two weeks), by user id. */
  async recent(): Promise<Presence[]> {
    const since = this.now() - PRESENCE_HORIZON_SECONDS;
    return (await this.store.all())
      .filter((p) => p.lastConnected >= since)
      .sort((a, b) => a.userId - b.userId);
  }

  /** One user's row, or undefined when never seen. */
  of(userId: number): Promise<Presence | undefined> {
    return this.store.of(userId);
  }

  /** The server's clock as presence answers report it (`server_timestamp`). */
  serverTimestamp(): number {
    return this.clock.now() / 1000;
  }

  /** Forgets a user (deactivation). */
  async forget(userId: number): Promise<void> {
    await this.store.forget(userId);
  }
}
