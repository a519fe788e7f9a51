import { AttachmentsRepo } from "./attachments-repo.js";
import type { Db, Queryable } from "./db.js";
import { MessagesRepo } from "./messages-repo.js";
import { ReactionsRepo } from "./reactions-repo.js";
import { StreamsRepo } from "./streams-repo.js";
import { UsersRepo } from "./users-repo.js";

/** The repositories the messaging and stream use cases read and write, over one connection. */
export interface Repositories {
  attachments: AttachmentsRepo;
  messages: MessagesRepo;
  reactions: ReactionsRepo;
  streams: StreamsRepo;
  users: UsersRepo;
}

/**
 * How the domain reaches the store without SQL: `read` for queries outside a transaction,
 * `transaction(fn)` for writes that commit together (rolled back when `fn` throws).
 */
export interface RepoStore {
  readonly read: Repositories;
  transaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
}

function repositoriesOf(q: Queryable): Repositories {
  return {
    attachments: new AttachmentsRepo(q),
    messages: new MessagesRepo(q),
    reactions: new ReactionsRepo(q),
    streams: new StreamsRepo(q),
    users: new UsersRepo(q),
  };
}

/** The RepoStore of one database. */
export function repoStore(db: Db): RepoStore {
  return {
    read: repositoriesOf(db),
    transaction: (fn) => db.transaction((tx) => fn(repositoriesOf(tx))),
  };
}
