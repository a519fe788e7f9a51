/**
 * The virtual file system of the virtual_fs bot: pure functions over a JSON-serialisable value, so
 * the bot only loads it from storage, runs one command and stores it back. Paths are absolute
 * (`/home/notes`); each user has a current directory.
 */

export type FsEntry = { kind: "dir"; fns: string[] } | { kind: "text"; content: string };

export interface VirtualFs {
  files: Record<string, FsEntry>;
  user_paths: Record<string, string>;
}

type Result = [VirtualFs, string];

export function newFs(): VirtualFs {
  return { files: { "/": { kind: "dir", fns: [] } }, user_paths: {} };
}

export const HELP = `
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

/** Requests and answers, in pairs: shown by `sample_conversation` and replayed by the tests. */
export const SAMPLE_CONVERSATION: readonly (readonly [string, string])[] = [
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

const ARG_PATTERNS = {
  command: "(cd|ls|mkdir|read|rmdir|rm|write|pwd)",
  path: "(\\S+)",
  optional_path: "(\\S*)",
  some_text: "(.+)",
} as const;

type ArgName = keyof typeof ARG_PATTERNS;
type Command = (fs: VirtualFs, user: string, ...args: string[]) => Result;

const COMMANDS: Record<string, { run: Command; args: readonly ArgName[] }> = {
  help: { run: (fs, _user, name = "") => [fs, syntaxHelp(name)], args: ["command"] },
  ls: { run: (fs, user, fn = "") => ls(fs, user, fn), args: ["optional_path"] },
  mkdir: { run: (fs, user, fn = "") => mkdir(fs, user, fn), args: ["path"] },
  read: { run: (fs, user, fn = "") => read(fs, user, fn), args: ["path"] },
  rm: { run: (fs, user, fn = "") => rm(fs, user, fn), args: ["path"] },
  rmdir: { run: (fs, user, fn = "") => rmdir(fs, user, fn), args: ["path"] },
  write: { run: (fs, user, fn = "", text = "") => write(fs, user, fn, text), args: ["path", "some_text"] },
  cd: { run: (fs, user, fn = "") => cd(fs, user, fn), args: ["path"] },
  pwd: { run: (fs, user) => [fs, nicePath(fs, currentPath(fs, user))], args: [] },
};

function syntaxHelp(name: string): string {
  const args = COMMANDS[name]?.args ?? [];
  return `syntax: ${[name, ...args.map((a) => `<${a}>`)].join(" ")}`;
}

/** Runs one command for `user`; returns the new file system and the answer. Never throws. */
export function fsCommand(fs: VirtualFs, user: string, command: string): Result {
  const cmd = command.trim();
  if (cmd === "help" || cmd === "") return [fs, HELP];
  if (cmd === "sample_conversation") {
    return [fs, SAMPLE_CONVERSATION.map(([request, answer]) => `${request}\n${answer}`).join("\n\n")];
  }
  const name = cmd.split(/\s+/)[0] ?? "";
  const rest = cmd.slice(name.length).trim();
  const spec = COMMANDS[name];
  if (!spec) return [fs, "ERROR: unrecognized command"];
  const match = new RegExp(`^${spec.args.map((a) => ARG_PATTERNS[a]).join(" ")}$`).exec(rest);
  if (match) return spec.run(structuredClone(fs), user, ...match.slice(1));
  if (name === "help") return [fs, HELP];
  return [fs, `ERROR: ${syntaxHelp(name)}`];
}

function currentPath(fs: VirtualFs, user: string): string {
  return fs.user_paths[user] ?? "/";
}

/** The absolute path of `leaf` for `user`, or an error message. */
function makePath(fs: VirtualFs, user: string, leaf: string): [string, string] {
  if (leaf === "/") return ["/", ""];
  if (leaf.endsWith("/")) return ["", `ERROR: ${leaf} is not a valid name`];
  if (leaf.startsWith("/")) return [leaf, ""];
  const dir = currentPath(fs, user);
  return [`${dir.endsWith("/") ? dir : `${dir}/`}${leaf}`, ""];
}

/** `/dir/` for directories, `/dir/*file*` for files. */
function nicePath(fs: VirtualFs, path: string): string {
  const entry = fs.files[path];
  if (!entry) return "ERROR: the current directory does not exist";
  const slash = path.lastIndexOf("/");
  if (entry.kind === "text") return `${path.slice(0, slash + 1)}*${path.slice(slash + 1)}*`;
  return path === "/" ? path : `${path}/`;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

function isDirectory(fs: VirtualFs, path: string): boolean {
  return fs.files[path]?.kind === "dir";
}

function addEntry(fs: VirtualFs, path: string, entry: FsEntry): VirtualFs {
  const parent = fs.files[parentOf(path)];
  if (parent?.kind === "dir" && !parent.fns.includes(path)) parent.fns.push(path);
  fs.files[path] = entry;
  return fs;
}

function removeEntry(fs: VirtualFs, path: string): void {
  const { [path]: _removed, ...rest } = fs.files;
  fs.files = rest;
  const parent = fs.files[parentOf(path)];
  if (parent?.kind === "dir") parent.fns = parent.fns.filter((fn) => fn !== path);
}

function create(fs: VirtualFs, user: string, fn: string, entry: FsEntry, done: string): Result {
  const [path, error] = makePath(fs, user, fn);
  if (error) return [fs, error];
  if (fs.files[path]) return [fs, "ERROR: file already exists"];
  const dir = parentOf(path);
  if (!isDirectory(fs, dir)) return [fs, `ERROR: ${dir} is not a directory`];
  return [addEntry(fs, path, entry), done];
}

function mkdir(fs: VirtualFs, user: string, fn: string): Result {
  return create(fs, user, fn, { kind: "dir", fns: [] }, "directory created");
}

function write(fs: VirtualFs, user: string, fn: string, content: string): Result {
  return create(fs, user, fn, { kind: "text", content }, "file written");
}

function ls(fs: VirtualFs, user: string, fn: string): Result {
  let path = currentPath(fs, user);
  if (fn !== "." && fn !== "") {
    const [made, error] = makePath(fs, user, fn);
    if (error) return [fs, error];
    path = made;
  }
  const entry = fs.files[path];
  if (!entry) return [fs, "ERROR: file does not exist"];
  if (entry.kind !== "dir") return [fs, `ERROR: ${path} is not a directory`];
  if (entry.fns.length === 0) return [fs, "WARNING: directory is empty"];
  const sorted = [...entry.fns].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [fs, sorted.map((p) => `* ${nicePath(fs, p)}`).join("\n")];
}

function read(fs: VirtualFs, user: string, fn: string): Result {
  const [path, error] = makePath(fs, user, fn);
  if (error) return [fs, error];
  const entry = fs.files[path];
  if (!entry) return [fs, "ERROR: file does not exist"];
  if (entry.kind === "dir") return [fs, `ERROR: ${nicePath(fs, path)} is a directory, file required`];
  return [fs, entry.content];
}

function rm(fs: VirtualFs, user: string, fn: string): Result {
  const [path, error] = makePath(fs, user, fn);
  if (error) return [fs, error];
  const entry = fs.files[path];
  if (!entry) return [fs, "ERROR: file does not exist"];
  if (entry.kind === "dir") return [fs, `ERROR: ${nicePath(fs, path)} is a directory, file required`];
  removeEntry(fs, path);
  return [fs, "removed"];
}

function rmdir(fs: VirtualFs, user: string, fn: string): Result {
  const [path, error] = makePath(fs, user, fn);
  if (error) return [fs, error];
  const entry = fs.files[path];
  if (!entry) return [fs, "ERROR: directory does not exist"];
  if (entry.kind === "text") return [fs, `ERROR: ${nicePath(fs, path)} is a file, directory required`];
  removeEntry(fs, path);
  for (const sub of Object.keys(fs.files)) {
    if (sub.startsWith(`${path}/`)) delete fs.files[sub];
  }
  return [fs, "removed"];
}

function cd(fs: VirtualFs, user: string, fn: string): Result {
  const target = fn.length > 1 && fn.endsWith("/") ? fn.slice(0, -1) : fn;
  const path = target.startsWith("/") ? target : makePath(fs, user, target)[0];
  const entry = fs.files[path];
  if (!entry) return [fs, "ERROR: invalid path"];
  if (entry.kind === "text") return [fs, `ERROR: ${nicePath(fs, path)} is a file, directory required`];
  fs.user_paths[user] = path;
  return [fs, `Current path: ${nicePath(fs, path)}`];
}
