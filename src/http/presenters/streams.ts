import type { Stream, Subscription } from "../../domain/streams/types.js";
import { streamWire, subscriptionWire } from "../../domain/streams/wire.js";

/** A stream of GET /streams (Zulip's BasicChannel); `is_default` only when asked for. */
export function presentStream(stream: Stream, opts: { includeDefault: boolean }): Record<string, unknown> {
  return opts.includeDefault ? { ...streamWire(stream), is_default: stream.isDefault } : streamWire(stream);
}

/** A Subscription object of GET /users/me/subscriptions (`subscribers` with include_subscribers). */
export function presentSubscription(
  stream: Stream,
  subscription: Subscription,
  subscribers: readonly number[] | undefined,
): Record<string, unknown> {
  return subscriptionWire(stream, subscription, subscribers);
}
