import fs from "node:fs";
import path from "node:path";

/**
 * Files holding secrets (the SQLite store with API keys and password hashes, zuliprc,
 * botserverrc) are 0600 and the data dir 0700 whatever the process umask: modes are set
 * explicitly after creation, never left to the umask.
 */
export const SECRET_FILE_MODE = 0o600;
export const SECRET_DIR_MODE = 0o700;

/** Creates the data dir if needed and makes it 0700. */
export function secureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: SECRET_DIR_MODE });
  fs.chmodSync(dir, SECRET_DIR_MODE);
}

/** Writes a file that only its owner may read or write (0600), replacing its contents. */
export function writeSecretFile(file: string, text: string): void {
  const fd = fs.openSync(file, "w", SECRET_FILE_MODE);
  try {
    fs.fchmodSync(fd, SECRET_FILE_MODE);
    fs.writeFileSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates `file` empty and 0600 if it does not exist, and makes it 0600 if it does. */
export function ensureSecretFile(file: string): void {
  const fd = fs.openSync(file, "a", SECRET_FILE_MODE);
  try {
    fs.fchmodSync(fd, SECRET_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

/** The SQLite database file and its WAL/shared-memory companions: 0600 where they exist. */
export function secureSqliteFiles(dbFile: string): void {
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) {
    try {
      fs.chmodSync(file, SECRET_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}

/** The SQLite file a config uses, or undefined for PostgreSQL and in-memory stores. */
export function sqliteFileOf(databaseUrl: string | undefined, dataDir: string): string | undefined {
  if (databaseUrl !== undefined && databaseUrl.startsWith("sqlite:")) {
    const file = databaseUrl.slice("sqlite:".length);
    return file === ":memory:" || file === "" ? undefined : file;
  }
  if (databaseUrl !== undefined && databaseUrl !== "") return undefined;
  return dataDir === ":memory:" ? undefined : path.join(dataDir, "chat.sqlite3");
}
