import { AttachmentsRepo } from "./attachments-repo.js";
import type { Db, Queryable } from "./db.js";
import { FlagsRepo } from "./flags-repo.js";
import { MessagesRepo } from "./messages-repo.js";
import { RecipientRowsRepo } from "./recipient-rows-repo.js";
import { SubmessagesRepo } from "./submessages-repo.js";
import { ReactionsRepo } from "./reactions-repo.js";
import { StreamsRepo } from "./streams-repo.js";
import { UsersRepo } from "./users-repo.js";

/** The repositories the messaging and stream use cases read and write, over one connection. */
export interface Repositories {
  attachments: AttachmentsRepo;
  messages: MessagesRepo;
  /** Who received which message, with which flags: reads, flag changes, unread state. */
  flags: FlagsRepo;
  /** The `user_messages` writes of sending, editing and moving. */
  recipientRows: RecipientRowsRepo;
  reactions: ReactionsRepo;
  submessages: SubmessagesRepo;
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
    flags: new FlagsRepo(q),
    recipientRows: new RecipientRowsRepo(q),
    reactions: new ReactionsRepo(q),
    submessages: new SubmessagesRepo(q),
    streams: new StreamsRepo(q),
    users: new UsersRepo(q),
  };
}

/**
 * One repository over a database, for a service that owns its tables: `read` outside a
 * transaction, `transaction(fn)` for writes that commit together (rolled back when `fn` throws).
 */
export interface TransactionalRepo<R> {
  readonly read: R;
  transaction<T>(fn: (repo: R) => Promise<T>): Promise<T>;
}

/** The TransactionalRepo of one repository class over one database (the composition root's). */
export function transactional<R>(db: Db, make: (q: Queryable) => R): TransactionalRepo<R> {
  return { read: make(db), transaction: (fn) => db.transaction((tx) => fn(make(tx))) };
}

/** The RepoStore of one database. */
export function repoStore(db: Db): RepoStore {
  return {
    read: repositoriesOf(db),
    transaction: (fn) => db.transaction((tx) => fn(repositoriesOf(tx))),
  };
}
