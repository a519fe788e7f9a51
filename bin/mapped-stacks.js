// Stack traces of the compiled build (dist/server) that name the TypeScript lines, without Node's
// source-map support: once enabled (--enable-source-maps, process.setSourceMapsEnabled) Node reads and
// holds the map of every chunk it loads, for the life of the process (about 5 MB of a server at
// rest, and their parsing in every command's start-up). Here a chunk's map is read the first time
// a formatted stack names that chunk; a process that never formats a stack reads none.
import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** @type {Map<string, { map: SourceMap, dir: string } | null>} chunk path → its map, once read */
const maps = new Map();

/** The map of a compiled chunk (`file.js.map` beside it), read once; null without one. */
function mapOf(file) {
  let entry = maps.get(file);
  if (entry === undefined) {
    entry = null;
    try {
      entry = {
        map: new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8"))),
        dir: path.dirname(file),
      };
    } catch {
      // No map, or not readable: the compiled location stays.
    }
    maps.set(file, entry);
  }
  return entry;
}

/** `file:line:column` of the source behind a compiled location, or undefined. */
function sourceLocation(fileName, line, column, compiledDir) {
  const file = fileName.startsWith("file:") ? fileURLToPath(fileName) : fileName;
  if (!file.startsWith(compiledDir)) return undefined;
  const entry = mapOf(file);
  if (entry === null) return undefined;
  const found = entry.map.findEntry(line - 1, column - 1);
  if (found === undefined || typeof found.originalSource !== "string") return undefined;
  const source = found.originalSource.startsWith("file:")
    ? fileURLToPath(found.originalSource)
    : path.resolve(entry.dir, found.originalSource);
  return `${source}:${found.originalLine + 1}:${found.originalColumn + 1}`;
}

/**
 * Formats stacks as V8 does, with each frame in `compiledDir` (a file URL or path of the build)
 * named by its source line. Does nothing when Node's own source-map support is on.
 */
export function mapStacksOf(compiledDir) {
  if (process.sourceMapsEnabled) return;
  const dir = compiledDir.startsWith("file:") ? fileURLToPath(compiledDir) : compiledDir;
  Error.prepareStackTrace = (error, sites) => {
    let header;
    try {
      header = Error.prototype.toString.call(error);
    } catch {
      header = "Error";
    }
    const frames = sites.map((site) => {
      const text = String(site);
      const fileName = site.getFileName();
      const line = site.getLineNumber();
      const column = site.getColumnNumber();
      if (typeof fileName !== "string" || line === null || column === null) return text;
      const mapped = sourceLocation(fileName, line, column, dir);
      return mapped === undefined ? text : text.replace(`${fileName}:${line}:${column}`, mapped);
    });
    return header + frames.map((f) => `\n    at ${f}`).join("");
  };
}
