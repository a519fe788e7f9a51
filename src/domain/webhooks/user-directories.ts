import { ProfileFieldType } from "../users/types.js";
import type { CustomProfileField, ProfileValue, User } from "../users/types.js";
import { appendTo } from "../../lib/append-to.js";

/** What the directories are built from (UserService). */
export interface DirectorySource {
  /** Changes whenever names, emails, activity or profile fields and values change (migration 115). */
  directoryVersion(): Promise<number>;
  allUsers(): Promise<User[]>;
  profileFields(): Promise<CustomProfileField[]>;
  profileData(userIds: readonly number[] | null): Promise<Map<number, Map<number, ProfileValue>>>;
}

/** Active users' full names by email (lower-case): the `directory` need. */
export type FullNameByEmail = (email: string) => string | undefined;
/** Active users' full names by external account (kind, account in any case): the `externalAccounts` need. */
export type NamesByExternalAccount = (kind: string, account: string) => readonly string[];

/**
 * Zulip's guess of a user from one of several names (an integration's direct message): the first
 * name that is an active user's full name (any case) or the start of an email, lowest id first.
 */
export type GuessUser = (names: readonly string[]) => User | undefined;

/** A value built for one version of the source, rebuilt (once, however many ask at the same time) when it changes. */
class Versioned<T> {
  private current: { version: number; value: Promise<T> } | undefined;

  constructor(private readonly build: () => Promise<T>) {}

  get(version: number): Promise<T> {
    if (this.current?.version === version) return this.current.value;
    const value = this.build();
    const entry = { version, value };
    this.current = entry;
    // A failed build is not kept: the next request builds again.
    value.catch(() => {
      if (this.current === entry) this.current = undefined;
    });
    return value;
  }
}

/**
 * The user directories webhooks look names up in, kept between requests while the store's
 * directory version stays the same: one small query per webhook instead of reading every user
 * (and every profile value) for each one. The version is read before the users, so a directory is
 * never older than the version it is kept under; a change committed meanwhile only makes the next
 * request build it again.
 */
export class UserDirectories {
  private readonly byEmail = new Versioned(() => this.buildByEmail());
  private readonly byAccount = new Versioned(() => this.buildByAccount());
  private readonly guesses = new Versioned(() => this.buildGuess());

  constructor(private readonly source: DirectorySource) {}

  async fullNameByEmail(): Promise<FullNameByEmail> {
    return this.byEmail.get(await this.source.directoryVersion());
  }

  async namesByExternalAccount(): Promise<NamesByExternalAccount> {
    return this.byAccount.get(await this.source.directoryVersion());
  }

  async guessUser(): Promise<GuessUser> {
    return this.guesses.get(await this.source.directoryVersion());
  }

  private async buildGuess(): Promise<GuessUser> {
    const users = (await this.source.allUsers())
      .filter((u) => u.isActive)
      .sort((a, b) => a.id - b.id)
      .map((user) => ({ user, name: user.fullName.toLowerCase(), email: user.email.toLowerCase() }));
    return (names) => {
      for (const raw of names) {
        const name = raw.toLowerCase();
        if (name === "") continue;
        const hit = users.find((u) => u.name === name || u.email.startsWith(name));
        if (hit !== undefined) return hit.user;
      }
      return undefined;
    };
  }

  private async buildByEmail(): Promise<FullNameByEmail> {
    const names = new Map(
      (await this.source.allUsers())
        .filter((u) => u.isActive)
        .map((u) => [u.email.toLowerCase(), u.fullName]),
    );
    return (email) => names.get(email.toLowerCase());
  }

  /**
   * Zulip's get_user_by_external_account: for each kind (the `subtype` of an external-account
   * profile field), the active users' full names by account name.
   */
  private async buildByAccount(): Promise<NamesByExternalAccount> {
    const kinds = new Map<number, string>();
    for (const field of await this.source.profileFields()) {
      if (field.fieldType !== ProfileFieldType.EXTERNAL_ACCOUNT) continue;
      const subtype = externalAccountSubtype(field.fieldData);
      if (subtype !== undefined) kinds.set(field.id, subtype);
    }
    const byAccount = new Map<string, string[]>();
    if (kinds.size > 0) {
      const active = new Map(
        (await this.source.allUsers()).filter((u) => u.isActive).map((u) => [u.id, u.fullName]),
      );
      for (const [userId, values] of await this.source.profileData(null)) {
        const fullName = active.get(userId);
        if (fullName === undefined) continue;
        for (const [fieldId, value] of values) {
          const kind = kinds.get(fieldId);
          if (kind === undefined || value.value === "") continue;
          const key = `${kind}\n${value.value.toLowerCase()}`;
          appendTo(byAccount, key, fullName);
        }
      }
    }
    return (kind, account) => byAccount.get(`${kind}\n${account.toLowerCase()}`) ?? [];
  }
}

/** The `subtype` of an external-account field's `field_data` (`{"subtype":"github"}`), if any. */
function externalAccountSubtype(fieldData: string): string | undefined {
  try {
    const data = JSON.parse(fieldData) as unknown;
    if (data !== null && typeof data === "object" && "subtype" in data && typeof data.subtype === "string") {
      return data.subtype;
    }
  } catch {
    // A field without valid field_data names no kind.
  }
  return undefined;
}
