import { describe, expect, it } from "@jest/globals";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BOTS, BOT_REGISTRY, EMBEDDABLE_BOT_NAMES, findBot } from "./index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const NOT_BOTS = new Set(["kit", "server"]);
const folders = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_BOTS.has(d.name))
  .map((d) => d.name)
  .sort();

describe("bot registry", () => {
  it("registers exactly the bot folders", () => {
    expect([...BOT_REGISTRY.keys()].sort()).toEqual(folders);
    expect(folders).toEqual([
      "converter",
      "encrypt",
      "followup",
      "helloworld",
      "help",
      "incrementor",
      "virtual_fs",
    ]);
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

  it("only lists registered bots as embeddable", () => {
    expect(EMBEDDABLE_BOT_NAMES.filter((n) => !BOT_REGISTRY.has(n))).toEqual([]);
  });
});
