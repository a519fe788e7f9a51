import { describe, expect, it } from "@jest/globals";
import { UserDirectories } from "../../src/domain/webhooks/user-directories.js";
import type { DirectorySource } from "../../src/domain/webhooks/user-directories.js";
import type { CustomProfileField, ProfileValue, User } from "../../src/domain/users/types.js";
import { userRecord } from "../helpers/users.js";

function user(id: number, email: string, fullName: string, isActive = true): User {
  return userRecord(id, { email, fullName, isActive });
}

/** A source whose version the test raises, counting how often the users are read. */
function source(users: User[]): DirectorySource & { version: number; reads: number; failNext: boolean } {
  const fields: CustomProfileField[] = [
    { id: 5, name: "GitHub", hint: "", fieldType: 7, fieldData: '{"subtype":"github"}', order: 1 },
    { id: 6, name: "Phone", hint: "", fieldType: 1, fieldData: "", order: 2 },
  ];
  const values = new Map<number, Map<number, ProfileValue>>([
    [1, new Map([[5, { value: "Ann-GH", renderedValue: null }]])],
    [2, new Map([[6, { value: "ann-gh", renderedValue: null }]])],
    [3, new Map([[5, { value: "ann-gh", renderedValue: null }]])],
  ]);
  const s = {
    version: 1,
    reads: 0,
    failNext: false,
    directoryVersion: () => Promise.resolve(s.version),
    allUsers: () => {
      s.reads++;
      if (s.failNext) {
        s.failNext = false;
        return Promise.reject(new Error("store unavailable"));
      }
      return Promise.resolve([...users]);
    },
    profileFields: () => Promise.resolve(fields),
    profileData: () => Promise.resolve(values),
  };
  return s;
}

describe("user directories for webhooks", () => {
  it("name active users by email in any case, built once per version of the store", async () => {
    const users = [user(1, "Ann@example.com", "Ann"), user(2, "bob@example.com", "Bob", false)];
    const src = source(users);
    const dirs = new UserDirectories(src);
    const first = await dirs.fullNameByEmail();
    expect([first("ann@EXAMPLE.com"), first("bob@example.com"), first("carl@example.com")]).toEqual([
      "Ann",
      undefined,
      undefined,
    ]);
    await dirs.fullNameByEmail();
    expect(src.reads).toBe(1);

    users[0] = user(1, "Ann@example.com", "Ann Lee");
    src.version = 2;
    expect((await dirs.fullNameByEmail())("ann@example.com")).toBe("Ann Lee");
    expect(src.reads).toBe(2);
  });

  it("build once for requests that ask at the same time, and again after a failed build", async () => {
    const src = source([user(1, "ann@example.com", "Ann")]);
    const dirs = new UserDirectories(src);
    src.failNext = true;
    await expect(dirs.fullNameByEmail()).rejects.toThrow("store unavailable");
    const lookups = await Promise.all([
      dirs.fullNameByEmail(),
      dirs.fullNameByEmail(),
      dirs.fullNameByEmail(),
    ]);
    expect(lookups.map((l) => l("ann@example.com"))).toEqual(["Ann", "Ann", "Ann"]);
    expect(src.reads).toBe(2);
  });

  it("name active users by the accounts of external-account fields of the kind, in any case", async () => {
    const src = source([
      user(1, "ann@example.com", "Ann"),
      user(2, "bob@example.com", "Bob"),
      user(3, "cy@example.com", "Cy", false),
    ]);
    const byAccount = await new UserDirectories(src).namesByExternalAccount();
    // Bob's value is in a field that is not an external account; Cy is deactivated.
    expect([
      byAccount("github", "ann-gh"),
      byAccount("twitter", "ann-gh"),
      byAccount("github", "nobody"),
    ]).toEqual([["Ann"], [], []]);
  });

  it("guess a user for a direct message: first name that matches, full name or email start, lowest id", async () => {
    const users = [
      user(7, "zed@example.com", "Ann"),
      user(4, "ann.smith@example.com", "Annie Smith"),
      user(2, "ghost@example.com", "Ghost", false),
      user(9, "bo@example.com", "Bo"),
    ];
    const src = source(users);
    const dirs = new UserDirectories(src);
    const guess = await dirs.guessUser();
    // "ANN" is user 7's full name and the start of user 4's email: the lower id wins.
    expect(guess(["ANN"])?.id).toBe(4);
    expect(guess(["annie smith"])?.id).toBe(4);
    expect(guess(["zed"])?.id).toBe(7);
    expect(guess(["", "nobody", "bo"])?.id).toBe(9);
    expect(guess(["Ghost", "ghost@"])).toBeUndefined();
    expect(guess([])).toBeUndefined();
    await dirs.guessUser();
    expect(src.reads).toBe(1);

    users[3] = user(9, "bo@example.com", "Bo", false);
    src.version = 2;
    expect((await dirs.guessUser())(["bo"])).toBeUndefined();
    expect(src.reads).toBe(2);
  });
});
