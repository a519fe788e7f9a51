import type { Redis } from "ioredis";
import type { ZulipEvent } from "../../domain/events/event-sink.js";
import type { EventQueueStore } from "../../domain/events/queue-store.js";
import type {
  AckResult,
  NewQueue,
  QueueDescriptor,
  QueueOptions,
  QueuedEvent,
} from "../../domain/events/types.js";

/**
 * The EventQueueStore in Redis: any process serves any queue (docs/deploy.md).
 *
 * Keys (all under `prefix`):
 * - `q:<id>`        hash: user, options (JSON), lifespan, last (ms), next (event id), pruned, waiter, waiter_until
 * - `q:<id>:ev`     list of unacknowledged events, ascending id: `<id>\n<json {e, f}>`, or for a
 *                   delivered coalesced event `<id>\n<json>\n<messages, JSON list items>`
 * - `q:<id>:virt`   hash of undelivered coalesced events by key: `i:<k>` id, `p:<k>` json, `m:<k>` messages
 * - `u:<uid>`       set of the user's queue ids (fan-out index); `public` set (all_public_streams)
 * - `gc`            sorted set: queue id scored by last connection + lifespan (the GC index; also size())
 * Every step is one Lua script, so two processes never interleave inside one. Pushes and deletions
 * PUBLISH the queue id on `<prefix>events` (every process wakes its own waiter); a poll that finds
 * another process's waiter PUBLISHes `<prefix>supersede`. The queue's keys also carry a Redis TTL
 * (lifespan + waiter lease) as a backstop: a queue no process sweeps still disappears.
 * A waiter is recorded with a lease (`waiterLeaseMs`): a process killed mid-poll leaves a waiter
 * id that stops protecting the queue from GC once the lease has passed.
 */
export interface RedisQueueStoreOptions {
  /** Key and channel prefix (tests use a fresh one each). */
  prefix: string;
  /** How long a recorded waiter protects its queue from GC (longer than a heartbeat period). */
  waiterLeaseMs: number;
}

const ALLOCATE = `
redis.call('HSET', KEYS[1], 'user', ARGV[1], 'options', ARGV[2], 'lifespan', ARGV[3], 'last', ARGV[4], 'next', 0, 'pruned', -1)
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('SADD', KEYS[2], ARGV[7])
if ARGV[5] == '1' then redis.call('SADD', KEYS[3], ARGV[7]) end
redis.call('ZADD', KEYS[4], tonumber(ARGV[4]) + tonumber(ARGV[3]) * 1000, ARGV[7])
return 1`;

/** KEYS q, ev, virt; ARGV payload, coalesce key ('' = none), messages (coalesced), channel, queue id. */
const PUSH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local id = redis.call('HINCRBY', KEYS[1], 'next', 1) - 1
local ttl = redis.call('PTTL', KEYS[1])
if ARGV[2] == '' then
  redis.call('RPUSH', KEYS[2], id .. '\\n' .. ARGV[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
else
  local k = ARGV[2]
  if redis.call('HEXISTS', KEYS[3], 'i:' .. k) == 0 then
    redis.call('HSET', KEYS[3], 'i:' .. k, id, 'p:' .. k, ARGV[1], 'm:' .. k, ARGV[3])
  else
    local m = redis.call('HGET', KEYS[3], 'm:' .. k)
    if m ~= '' and ARGV[3] ~= '' then m = m .. ',' .. ARGV[3] elseif m == '' then m = ARGV[3] end
    redis.call('HSET', KEYS[3], 'i:' .. k, id, 'm:' .. k, m)
  end
  if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
end
local size = redis.call('LLEN', KEYS[2]) + redis.call('HLEN', KEYS[3]) / 3
redis.call('PUBLISH', ARGV[4], ARGV[5])
return size`;

/** KEYS q, ev; ARGV last_event_id. Steps 4–6 of the long-poll algorithm. */
const ACKNOWLEDGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'no-queue', -1} end
local last = tonumber(ARGV[1])
local pruned = tonumber(redis.call('HGET', KEYS[1], 'pruned'))
if last < pruned then return {'already-pruned', pruned} end
while true do
  local head = redis.call('LINDEX', KEYS[2], 0)
  if not head then break end
  local id = tonumber(string.sub(head, 1, string.find(head, '\\n', 1, true) - 1))
  if id > last then break end
  redis.call('LPOP', KEYS[2])
  pruned = id
end
redis.call('HSET', KEYS[1], 'pruned', pruned)
if last ~= pruned then return {'not-in-queue', pruned} end
return {'ok', pruned}`;

/** KEYS q, ev, virt. Folds undelivered coalesced events into the list (ascending id), returns it. */
const FETCH = `
if redis.call('HLEN', KEYS[3]) == 0 then return redis.call('LRANGE', KEYS[2], 0, -1) end
local flat = redis.call('HGETALL', KEYS[3])
local byKey = {}
for i = 1, #flat, 2 do
  local k = string.sub(flat[i], 3)
  byKey[k] = byKey[k] or {}
  byKey[k][string.sub(flat[i], 1, 1)] = flat[i + 1]
end
local v = {}
for _, t in pairs(byKey) do table.insert(v, {tonumber(t['i']), t['i'] .. '\\n' .. t['p'] .. '\\n' .. t['m']}) end
table.sort(v, function(a, b) return a[1] < b[1] end)
local out = {}
local j = 1
for _, e in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  local id = tonumber(string.sub(e, 1, string.find(e, '\\n', 1, true) - 1))
  while j <= #v and v[j][1] < id do table.insert(out, v[j][2]); j = j + 1 end
  table.insert(out, e)
end
while j <= #v do table.insert(out, v[j][2]); j = j + 1 end
redis.call('DEL', KEYS[2], KEYS[3])
for i = 1, #out, 1000 do redis.call('RPUSH', KEYS[2], unpack(out, i, math.min(i + 999, #out))) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return out`;

/** KEYS q, ev, virt, gc; ARGV now, waiter lease (ms), queue id, waiter id ('' = touch only), waiter until. */
const CONNECT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local lifespan = tonumber(redis.call('HGET', KEYS[1], 'lifespan'))
local prev = redis.call('HGET', KEYS[1], 'waiter')
if ARGV[4] == '' then
  redis.call('HSET', KEYS[1], 'last', ARGV[1])
else
  redis.call('HSET', KEYS[1], 'last', ARGV[1], 'waiter', ARGV[4], 'waiter_until', ARGV[5])
end
redis.call('ZADD', KEYS[4], tonumber(ARGV[1]) + lifespan * 1000, ARGV[3])
local ttl = lifespan * 1000 + tonumber(ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
return prev`;

/** KEYS q; ARGV waiter id. Compare-and-delete. */
const DETACH = `
if redis.call('HGET', KEYS[1], 'waiter') == ARGV[1] then redis.call('HDEL', KEYS[1], 'waiter', 'waiter_until') end
return 1`;

/** KEYS q, ev, virt, owners, public, gc; ARGV queue id, prefix, channel. */
const DELETE = `
local uid = redis.call('HGET', KEYS[4], ARGV[1])
local existed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('SREM', KEYS[5], ARGV[1])
local indexed = redis.call('ZREM', KEYS[6], ARGV[1])
if uid then redis.call('SREM', ARGV[2] .. 'u:' .. uid, ARGV[1]) end
if existed == 1 or indexed == 1 then redis.call('PUBLISH', ARGV[3], ARGV[1]) end
return existed`;

/** KEYS gc; ARGV now, prefix. Queues idle past their lifespan with no live waiter. */
const EXPIRED = `
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  local w = redis.call('HMGET', ARGV[2] .. 'q:' .. id, 'waiter', 'waiter_until')
  if not w[1] or not w[2] or tonumber(w[2]) <= tonumber(ARGV[1]) then table.insert(out, id) end
end
return out`;

/** The parts of a stored event: `{e: event, f: flags}`. */
interface Stored {
  e: ZulipEvent;
  f?: readonly string[];
}

function decode(entry: string): QueuedEvent {
  const first = entry.indexOf("\n");
  const id = Number(entry.slice(0, first));
  const second = entry.indexOf("\n", first + 1);
  if (second === -1) {
    const s = JSON.parse(entry.slice(first + 1)) as Stored;
    return { id, event: s.e, flags: s.f };
  }
  const s = JSON.parse(entry.slice(first + 1, second)) as Stored;
  const messages = JSON.parse(`[${entry.slice(second + 1)}]`) as unknown[];
  return { id, event: { ...s.e, messages }, flags: s.f };
}

/** The Redis EventQueueStore; see the comment at the top of this file. */
export class RedisEventQueueStore implements EventQueueStore {
  private readonly eventsChannel: string;
  private readonly supersedeChannel: string;
  private readonly eventListeners: ((queueId: string) => void)[] = [];
  private readonly supersedeListeners: ((queueId: string, waiterId: string) => void)[] = [];
  private readonly optionsCache = new Map<string, QueueOptions>();

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel === this.eventsChannel) {
      for (const listener of this.eventListeners) listener(message);
    } else if (channel === this.supersedeChannel) {
      const space = message.indexOf(" ");
      for (const listener of this.supersedeListeners) {
        listener(message.slice(0, space), message.slice(space + 1));
      }
    }
  };

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisQueueStoreOptions,
  ) {
    this.eventsChannel = `${options.prefix}events`;
    this.supersedeChannel = `${options.prefix}supersede`;
    subscriber.on("message", this.onMessage);
    subscriber.on("ready", this.onReconnect);
  }

  /** Back after a lost connection: wake-ups published meanwhile were missed, so look at every waiter. */
  private readonly onReconnect = (): void => {
    for (const listener of this.eventListeners) listener("");
  };

  /** Subscribes to the wake-up channels; resolves once Redis confirmed (call before serving). */
  async subscribe(): Promise<void> {
    await this.subscriber.subscribe(this.eventsChannel, this.supersedeChannel);
  }

  /** Stops listening (the connections and their subscriptions belong to the caller). */
  dispose(): void {
    this.subscriber.off("message", this.onMessage);
    this.subscriber.off("ready", this.onReconnect);
  }

  private key(queueId: string, part = ""): string {
    return `${this.options.prefix}q:${queueId}${part}`;
  }

  private queueKeys(queueId: string): [string, string, string] {
    return [this.key(queueId), this.key(queueId, ":ev"), this.key(queueId, ":virt")];
  }

  private get gcKey(): string {
    return `${this.options.prefix}gc`;
  }

  private parseOptions(json: string): QueueOptions {
    const known = this.optionsCache.get(json);
    if (known !== undefined) return known;
    if (this.optionsCache.size >= 512) this.optionsCache.clear();
    const options = JSON.parse(json) as QueueOptions;
    this.optionsCache.set(json, options);
    return options;
  }

  async allocate(q: NewQueue): Promise<void> {
    const p = this.options.prefix;
    const ttl = q.lifespanSecs * 1000 + this.options.waiterLeaseMs;
    await this.redis
      .multi()
      .eval(
        ALLOCATE,
        4,
        this.key(q.id),
        `${p}u:${q.userId}`,
        `${p}public`,
        this.gcKey,
        q.userId,
        JSON.stringify(q.options),
        q.lifespanSecs,
        q.nowMs,
        q.options.allPublicStreams ? "1" : "0",
        ttl,
        q.id,
      )
      .hset(`${p}owners`, q.id, q.userId)
      .exec();
  }

  async describe(queueId: string): Promise<QueueDescriptor | undefined> {
    const [user, options, lifespan, last, pruned, waiter] = await this.redis.hmget(
      this.key(queueId),
      "user",
      "options",
      "lifespan",
      "last",
      "pruned",
      "waiter",
    );
    if (user === null || user === undefined || options === null || options === undefined) return undefined;
    return {
      id: queueId,
      userId: Number(user),
      options: this.parseOptions(options),
      lifespanSecs: Number(lifespan),
      lastConnectionMs: Number(last),
      newestPrunedId: Number(pruned),
      waiterId: waiter ?? null,
    };
  }

  queueIdsForUser(userId: number): Promise<readonly string[]> {
    return this.redis.smembers(`${this.options.prefix}u:${userId}`);
  }

  allPublicStreamsQueueIds(): Promise<readonly string[]> {
    return this.redis.smembers(`${this.options.prefix}public`);
  }

  async push(
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
    coalesceKey?: string,
  ): Promise<number | undefined> {
    let payload: string;
    let messages = "";
    if (coalesceKey === undefined) {
      payload = JSON.stringify({ e: event, f: flags });
    } else {
      const list = Array.isArray(event["messages"]) ? (event["messages"] as unknown[]) : [];
      payload = JSON.stringify({ e: { ...event, messages: [] }, f: flags });
      messages = JSON.stringify(list).slice(1, -1);
    }
    const size = (await this.redis.eval(
      PUSH,
      3,
      ...this.queueKeys(queueId),
      payload,
      coalesceKey ?? "",
      messages,
      this.eventsChannel,
      queueId,
    )) as number;
    return size < 0 ? undefined : size;
  }

  async acknowledge(queueId: string, lastEventId: number): Promise<AckResult> {
    const [status, pruned] = (await this.redis.eval(
      ACKNOWLEDGE,
      2,
      this.key(queueId),
      this.key(queueId, ":ev"),
      lastEventId,
    )) as [string, number];
    if (status === "ok") return { ok: true };
    return {
      ok: false,
      reason: status as "already-pruned" | "not-in-queue" | "no-queue",
      newestPrunedId: Number(pruned),
    };
  }

  async fetch(queueId: string): Promise<QueuedEvent[]> {
    const entries = (await this.redis.eval(FETCH, 3, ...this.queueKeys(queueId))) as string[];
    return entries.map(decode);
  }

  private connect(queueId: string, nowMs: number, waiterId: string): Promise<unknown> {
    return this.redis.eval(
      CONNECT,
      4,
      ...this.queueKeys(queueId),
      this.gcKey,
      nowMs,
      this.options.waiterLeaseMs,
      queueId,
      waiterId,
      nowMs + this.options.waiterLeaseMs,
    );
  }

  async touch(queueId: string, nowMs: number): Promise<void> {
    await this.connect(queueId, nowMs, "");
  }

  async attachWaiter(queueId: string, waiterId: string, nowMs: number): Promise<string | null> {
    const previous = await this.connect(queueId, nowMs, waiterId);
    return typeof previous === "string" ? previous : null;
  }

  async detachWaiter(queueId: string, waiterId: string): Promise<void> {
    await this.redis.eval(DETACH, 1, this.key(queueId), waiterId);
  }

  async delete(queueId: string): Promise<boolean> {
    const p = this.options.prefix;
    const existed = (await this.redis.eval(
      DELETE,
      6,
      ...this.queueKeys(queueId),
      `${p}owners`,
      `${p}public`,
      this.gcKey,
      queueId,
      p,
      this.eventsChannel,
    )) as number;
    return existed === 1;
  }

  expiredQueueIds(nowMs: number): Promise<string[]> {
    return this.redis.eval(EXPIRED, 1, this.gcKey, nowMs, this.options.prefix) as Promise<string[]>;
  }

  size(): Promise<number> {
    return this.redis.zcard(this.gcKey);
  }

  onEventsAvailable(listener: (queueId: string) => void): void {
    this.eventListeners.push(listener);
  }

  async supersede(queueId: string, waiterId: string): Promise<void> {
    await this.redis.publish(this.supersedeChannel, `${queueId} ${waiterId}`);
  }

  onSuperseded(listener: (queueId: string, waiterId: string) => void): void {
    this.supersedeListeners.push(listener);
  }
}
