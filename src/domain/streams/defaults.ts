import type { User } from "../users/types.js";
import type { StreamDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";
import { pickColor, renderDescription } from "./shared.js";
import { publishSubscribed } from "./subscribe.js";
import type { Stream } from "./types.js";

/**
 * First start (idempotent): when the realm has no stream yet, creates the public default stream
 * "general", subscribes the active human users and makes it the realm's notifications stream.
 */
export async function ensureDefaultStreams(deps: StreamDeps): Promise<void> {
  if ((await deps.store.read.streams.all()).length > 0) return;
  const realm = await deps.users.realm();
  const description = "Everyone is added to this stream by default. Welcome!";
  const humans = (await deps.users.allUsers()).filter((u) => u.isActive && !u.isBot);
  const now = nowSeconds(deps);
  await deps.store.transaction(async ({ streams: repo, users }) => {
    const general = await repo.insert({
      realmId: realm.id,
      name: "general",
      description,
      renderedDescription: renderDescription(description),
      inviteOnly: false,
      historyPublicToSubscribers: true,
      isAnnouncementOnly: false,
      isDefault: true,
      dateCreated: now,
      creatorId: null,
    });
    if (general === undefined) return; // another process of this organization made it just now
    for (const user of humans) await repo.activate(user.id, general.id, pickColor(new Set()), now);
    await users.setRealmNotificationsStream(realm.id, general.id);
  });
}

/** Subscribes a new user to the realm's default streams (for user creation), with events. */
export async function subscribeToDefaultStreams(deps: StreamDeps, user: User): Promise<void> {
  const defaults = (await deps.store.read.streams.all()).filter((s) => s.isDefault);
  if (defaults.length === 0) return;
  const now = nowSeconds(deps);
  const added: { user: User; stream: Stream }[] = [];
  await deps.store.transaction(async ({ streams: repo }) => {
    const used = new Set(await repo.colorsOf(user.id));
    for (const stream of defaults) {
      if (await repo.isSubscribed(user.id, stream.id)) continue;
      const color = pickColor(used);
      used.add(color);
      await repo.activate(user.id, stream.id, color, now);
      added.push({ user, stream });
    }
  });
  await publishSubscribed(deps, [], added, new Map());
}
