import { JsonableError } from "../../errors.js";
import type { EventSink } from "../events/event-sink.js";
import { REALM_TOPICS_POLICIES, isAdmin } from "../users/types.js";
import type { Realm, RealmTopicsPolicy, User } from "../users/types.js";

export interface RealmTopicsPolicyDeps {
  events: EventSink;
  users: { realm(): Promise<Realm>; activeUserIds(): Promise<number[]> };
  realmRepo: { setRealmTopicsPolicy(realmId: number, policy: RealmTopicsPolicy): Promise<void> };
}

/**
 * The realm's `topics_policy` (Zulip 11, feature level 392): whether a channel message may have an
 * empty topic (clients show it as `realm_empty_topic_display_name`). Admins change it with PATCH /realm.
 */
export class RealmTopicsPolicyService {
  constructor(private readonly deps: RealmTopicsPolicyDeps) {}

  async set(actor: User, raw: string): Promise<void> {
    if (!isAdmin(actor)) throw new JsonableError("Must be an organization administrator");
    if (!(REALM_TOPICS_POLICIES as readonly string[]).includes(raw))
      throw new JsonableError("Invalid topics_policy");
    const policy = raw as RealmTopicsPolicy;
    const realm = await this.deps.users.realm();
    if (realm.topicsPolicy === policy) return;
    await this.deps.realmRepo.setRealmTopicsPolicy(realm.id, policy);
    const everyone = await this.deps.users.activeUserIds();
    // Zulip's realm update event; `mandatory_topics` is the pre-392 name of the same rule.
    this.deps.events.send(
      { type: "realm", op: "update", property: "topics_policy", value: policy },
      everyone,
    );
    this.deps.events.send(
      { type: "realm", op: "update", property: "mandatory_topics", value: policy === "disable_empty_topic" },
      everyone,
    );
  }

  /** Whether a channel message may be sent with an empty topic now. */
  async allowsEmptyTopic(): Promise<boolean> {
    return (await this.deps.users.realm()).topicsPolicy === "allow_empty_topic";
  }
}
