import { describe, expect, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import virtualFs from "./index.js";

const HELP = `
This bot implements a virtual file system for a stream.
The locations of text are persisted for the lifetime of the bot
running, and if you rename a stream, you will lose the info.
Example commands:

\`\`\`
@mention-bot sample_conversation: sample conversation with the bot
@mention-bot mkdir: create a directory
@mention-bot ls: list a directory
@mention-bot cd: change directory
@mention-bot pwd: show current path
@mention-bot write: write text
@mention-bot read: read text
@mention-bot rm: remove a file
@mention-bot rmdir: remove a directory
\`\`\`
Use commands like \`@mention-bot help write\` for more details on specific
commands.
`;

// Zulip's sample conversation for this bot; every answer is prefixed with the sender.
const CONVERSATION: [string, string][] = [
  ["cd /", "Current path: /"],
  ["cd /home", "ERROR: invalid path"],
  ["cd .", "ERROR: invalid path"],
  ["mkdir home", "directory created"],
  ["cd home", "Current path: /home/"],
  ["cd /home/", "Current path: /home/"],
  ["mkdir stuff/", "ERROR: stuff/ is not a valid name"],
  ["mkdir stuff", "directory created"],
  ["write stuff/file1 something", "file written"],
  ["read stuff/file1", "something"],
  ["read /home/stuff/file1", "something"],
  ["read home/stuff/file1", "ERROR: file does not exist"],
  ["pwd   ", "/home/"],
  ["pwd bla", "ERROR: syntax: pwd"],
  ["ls bla foo", "ERROR: syntax: ls <optional_path>"],
  ["cd /", "Current path: /"],
  ["rm home", "ERROR: /home/ is a directory, file required"],
  ["rmdir home", "removed"],
  ["ls", "WARNING: directory is empty"],
  ["cd home", "ERROR: invalid path"],
  ["read /home/stuff/file1", "ERROR: file does not exist"],
  ["cd /", "Current path: /"],
  ["write /foo contents of /foo", "file written"],
  ["read /foo", "contents of /foo"],
  ["write /bar Contents: bar bar", "file written"],
  ["read /bar", "Contents: bar bar"],
  ["write /bar invalid", "ERROR: file already exists"],
  ["rm /bar", "removed"],
  ["rm /bar", "ERROR: file does not exist"],
  ["write /bar new bar", "file written"],
  ["read /bar", "new bar"],
  ["write /yo/invalid whatever", "ERROR: /yo is not a directory"],
  ["mkdir /yo", "directory created"],
  ["read /yo", "ERROR: /yo/ is a directory, file required"],
  ["ls /yo", "WARNING: directory is empty"],
  ["read /yo/nada", "ERROR: file does not exist"],
  ["write /yo whatever", "ERROR: file already exists"],
  ["write /yo/apple red", "file written"],
  ["read /yo/apple", "red"],
  ["mkdir /yo/apple", "ERROR: file already exists"],
  ["ls /invalid", "ERROR: file does not exist"],
  ["ls /foo", "ERROR: /foo is not a directory"],
  ["ls /", "* /*bar*\n* /*foo*\n* /yo/"],
  ["read bogus", "ERROR: file does not exist"],
  ["invalid command", "ERROR: unrecognized command"],
  ["write", "ERROR: syntax: write <path> <some_text>"],
  ["help", HELP],
  ["help ls", "syntax: ls <optional_path>"],
  ["help invalid_command", HELP],
];

describe("virtual_fs", () => {
  it("plays Zulip's sample conversation", () =>
    botTester(virtualFs).verifyDialog(
      CONVERSATION.map(([request, answer]) => [request, `foo@example.com:\n${answer}`] as const),
    ));

  it("answers an empty message with the help", () =>
    botTester(virtualFs).verifyDialog([["", `foo@example.com:\n${HELP}`]]));

  it("shows the sample conversation on request", async () => {
    const [action] = await botTester(virtualFs).send("sample_conversation");
    const text = action?.kind === "send" ? action.message.content : "";
    expect(
      text.startsWith("foo@example.com:\ncd /\nCurrent path: /\n\ncd /home\nERROR: invalid path\n\n"),
    ).toBe(true);
    expect(text.endsWith("\n\nhelp ls\nsyntax: ls <optional_path>\n\nhelp invalid_command\n" + HELP)).toBe(
      true,
    );
  });

  it("removes a directory with its contents and refuses rmdir on a file", () =>
    botTester(virtualFs).verifyDialog([
      ["mkdir /a", "foo@example.com:\ndirectory created"],
      ["mkdir /a/b", "foo@example.com:\ndirectory created"],
      ["write /a/b/c text", "foo@example.com:\nfile written"],
      ["rmdir /a/b/c", "foo@example.com:\nERROR: /a/b/*c* is a file, directory required"],
      ["rmdir /nope", "foo@example.com:\nERROR: directory does not exist"],
      ["cd /a/b/c", "foo@example.com:\nERROR: /a/b/*c* is a file, directory required"],
      ["rmdir /a", "foo@example.com:\nremoved"],
      ["read /a/b/c", "foo@example.com:\nERROR: file does not exist"],
      ["ls /", "foo@example.com:\nWARNING: directory is empty"],
    ]));

  it("keeps one file system per conversation and one current directory per user", async () => {
    const tester = botTester(virtualFs);
    const text = async (content: string, fields: Parameters<typeof tester.send>[1]): Promise<string> => {
      const [action] = await tester.send(content, fields);
      return action?.kind === "send" ? action.message.content : "";
    };
    const alice = { sender_email: "alice@example.com" };
    const bob = { sender_email: "bob@example.com" };
    expect(await text("mkdir /docs", alice)).toBe("alice@example.com:\ndirectory created");
    expect(await text("cd /docs", alice)).toBe("alice@example.com:\nCurrent path: /docs/");
    expect(await text("pwd", bob)).toBe("bob@example.com:\n/");
    expect(await text("pwd", alice)).toBe("alice@example.com:\n/docs/");
    expect(await text("ls /", { ...alice, display_recipient: "other stream" })).toBe(
      "alice@example.com:\nWARNING: directory is empty",
    );
    const dm = {
      ...alice,
      type: "private" as const,
      display_recipient: [
        { id: 1, email: "alice@example.com", full_name: "Alice" },
        { id: 2, email: "test-bot@example.com", full_name: "Test Bot" },
      ],
    };
    expect(await text("write /x y", dm)).toBe("alice@example.com:\nfile written");
    expect([...tester.handler.storage.data.keys()]).toEqual([
      "test stream",
      "other stream",
      "alice@example.com test-bot@example.com",
    ]);
  });
});
