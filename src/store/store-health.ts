import type { Queryable } from "./db.js";

/** Whether the store answers a trivial query (`GET /ready`). */
export interface StoreHealth {
  /** True when the store answered; rejects when it is unreachable. */
  ping(): Promise<boolean>;
}

export function storeHealth(db: Queryable): StoreHealth {
  return {
    ping: async () => (await db.get<{ one: number }>("SELECT 1 AS one")) !== undefined,
  };
}
