import { describe, expect, it } from "@jest/globals";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BOTS, BOT_REGISTRY, EMBEDDABLE_BOT_NAMES, findBot } from "./index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
/** Folders of bots/ that hold the machinery, not a bot. */
const NOT_BOTS = new Set(["kit", "server", "runner"]);
const folders = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_BOTS.has(d.name))
  .map((d) => d.name)
  .sort();

describe("bot registry", () => {
  it("registers exactly the bot folders", () => {
    expect([...BOT_REGISTRY.keys()].sort()).toEqual(folders);
    expect(folders.length).toBeGreaterThan(0);
  });

  it.each(folders)("%s has index.ts, a test and doc.md", (name) => {
    expect({
      name,
      index: existsSync(`${here}${name}/index.ts`),
      test: existsSync(`${here}${name}/${name}.test.ts`),
      doc: existsSync(`${here}${name}/doc.md`),
    }).toEqual({ name, index: true, test: true, doc: true });
  });

  it("has unique names and finds bots by name", () => {
    expect(new Set(BOTS.map((b) => b.name)).size).toBe(BOTS.length);
    expect(findBot("helloworld")?.name).toBe("helloworld");
    expect(findBot("nope")).toBeUndefined();
  });

  it("lists as embeddable exactly the bots whose definition says so", () => {
    for (const bot of BOTS)
      expect([bot.name, EMBEDDABLE_BOT_NAMES.includes(bot.name)]).toEqual([bot.name, bot.embeddable]);
    // Zulip's EMBEDDED_BOTS that we bundle stay embeddable.
    for (const name of ["converter", "encrypt", "helloworld", "virtual_fs", "followup"]) {
      expect([name, findBot(name)?.embeddable]).toEqual([name, true]);
    }
  });
});
