import type { Migration } from "./types.js";

/** The tables whose changes change what webhooks look users up by: for `users`, these columns only. */
const WATCHED: { table: string; columns?: string }[] = [
  { table: "users", columns: "email, full_name, is_active" },
  { table: "custom_profile_fields" },
  { table: "custom_profile_field_values" },
];

function updateOf(columns: string | undefined): string {
  return columns === undefined ? "UPDATE" : `UPDATE OF ${columns}`;
}

/**
 * A counter that every change to the users' names, emails and activity, or to custom profile
 * fields and their values, raises in the same transaction (UsersRepo.directoryVersion): a process
 * keeps the directories it built for webhooks (email → name, external account → names) while the
 * counter stays the same. On PostgreSQL it is raised as the transaction commits (a deferred
 * constraint trigger), so the counter's row is locked only during a commit, after every statement
 * of the transaction: two transactions changing users never wait on each other through it.
 */
export const userDirectoryVersion: Migration = {
  id: "115-user-directory-version",
  up: (t) => {
    const table = `CREATE TABLE user_directory_version (id INTEGER PRIMARY KEY CHECK (id = 1), version ${t.bigint} NOT NULL);
INSERT INTO user_directory_version (id, version) VALUES (1, 0)`;
    const raise = "UPDATE user_directory_version SET version = version + 1 WHERE id = 1;";
    if (t.dialect === "sqlite") {
      const triggers = WATCHED.flatMap(({ table: watched, columns }) =>
        (["insert", "delete", "update"] as const).map(
          (event) =>
            `CREATE TRIGGER ${watched}_directory_${event} AFTER ${event === "update" ? updateOf(columns) : event.toUpperCase()} ON ${watched} BEGIN ${raise} END`,
        ),
      );
      return [table, ...triggers].join(";\n");
    }
    const fn = `CREATE FUNCTION raise_user_directory_version() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${raise} RETURN NULL; END $$`;
    const triggers = WATCHED.map(
      ({ table: watched, columns }) =>
        `CREATE CONSTRAINT TRIGGER ${watched}_directory AFTER INSERT OR DELETE OR ${updateOf(columns)} ON ${watched} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION raise_user_directory_version()`,
    );
    return [table, fn, ...triggers].join(";\n");
  },
};
