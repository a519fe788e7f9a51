import { JsonableError } from "../../errors.js";
import { subscriptionUpdateEvent } from "../../wire/events.js";
import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { normalizeColor } from "./stream-names.js";
import { SUBSCRIPTION_PROPERTIES } from "./types.js";
import type { Stream, SubscriptionProperty } from "./types.js";

export interface PropertyChange {
  streamId: number;
  property: string;
  value: string | boolean;
}

/**
 * POST /users/me/subscriptions/properties. Every change is validated first (unknown property,
 * "Invalid stream ID", "Not subscribed to stream id N", the value's type), then all are applied in
 * one transaction; one `subscription` update event per change (is_muted and in_home_view both).
 */
export async function updateSubscriptionProperties(
  deps: StreamDeps,
  user: User,
  changes: readonly PropertyChange[],
): Promise<void> {
  const checked: { stream: Stream; property: SubscriptionProperty; value: string | boolean }[] = [];
  for (const change of changes) {
    if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
      throw new JsonableError(`Unknown subscription property: ${change.property}`);
    }
    const property = change.property as SubscriptionProperty;
    const stream = await deps.access.accessibleById(user, change.streamId);
    if (!(await deps.access.isSubscribed(user.id, stream.id))) {
      throw new JsonableError(`Not subscribed to stream id ${change.streamId}`);
    }
    let value: string | boolean;
    if (property === "color") {
      value = normalizeColor(change.value, property);
    } else {
      if (typeof change.value !== "boolean") throw new JsonableError(`${property} is not a boolean`);
      value = change.value;
    }
    checked.push({ stream, property, value });
  }
  await deps.store.transaction(async ({ streams: repo }) => {
    for (const { stream, property, value } of checked) {
      if (property === "in_home_view") await repo.setProperty(user.id, stream.id, "is_muted", !value);
      else await repo.setProperty(user.id, stream.id, property, value);
    }
  });
  for (const { stream, property, value } of checked) {
    const update = (p: string, v: string | boolean): void => {
      deps.events.send(subscriptionUpdateEvent(stream.id, p, v), [user.id]);
    };
    if (property === "in_home_view" || property === "is_muted") {
      const muted = property === "is_muted" ? (value as boolean) : !(value as boolean);
      update("in_home_view", !muted);
      update("is_muted", muted);
    } else {
      update(property, value);
    }
  }
}
