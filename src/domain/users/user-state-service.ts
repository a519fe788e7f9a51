import type { RecentConversationRow, UserStateRepo } from "../../store/user-state-repo.js";

/** Per-user state that POST /register reports and no other service owns (starred ids, recent conversations). */
export class UserStateService {
  constructor(private readonly repo: Pick<UserStateRepo, "starredMessageIds" | "recentConversations">) {}

  /** Ids of the messages the user starred, ascending. */
  starredMessageIds(userId: number): Promise<number[]> {
    return this.repo.starredMessageIds(userId);
  }

  /** The user's direct-message conversations, most recent first (at most `limit`). */
  recentConversations(userId: number, limit: number): Promise<RecentConversationRow[]> {
    return this.repo.recentConversations(userId, limit);
  }
}
