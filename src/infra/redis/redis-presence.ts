import type { Redis } from "ioredis";
import type { Presence, PresenceStore } from "../../domain/presence/presence-service.js";

/**
 * KEYS presence hash; ARGV user id, now (s), '1' when active. One step, so two processes recording
 * the same user's pings never lose one's `lastActive`. A row is `<lastActive or ''>|<lastConnected>`.
 */
const RECORD = `
local before = redis.call('HGET', KEYS[1], ARGV[1])
local active = ''
if before then active = string.sub(before, 1, string.find(before, '|', 1, true) - 1) end
if ARGV[3] == '1' then active = ARGV[2] end
redis.call('HSET', KEYS[1], ARGV[1], active .. '|' .. ARGV[2])
return before`;

function decode(userId: number, row: string): Presence {
  const bar = row.indexOf("|");
  const active = row.slice(0, bar);
  return {
    userId,
    lastActive: active === "" ? null : Number(active),
    lastConnected: Number(row.slice(bar + 1)),
  };
}

/** Presence rows in one Redis hash (`<prefix>presence`, field = user id): every process sees every ping. */
export function redisPresenceStore(redis: Redis, prefix: string): PresenceStore {
  const key = `${prefix}presence`;
  return {
    async record(userId, nowSec, active) {
      const before = (await redis.eval(RECORD, 1, key, userId, nowSec, active ? "1" : "0")) as string | null;
      return before === null ? undefined : decode(userId, before);
    },
    async all() {
      const rows = await redis.hgetall(key);
      return Object.entries(rows).map(([id, row]) => decode(Number(id), row));
    },
    async of(userId) {
      const row = await redis.hget(key, String(userId));
      return row === null ? undefined : decode(userId, row);
    },
    async forget(userId) {
      await redis.hdel(key, String(userId));
    },
  };
}
