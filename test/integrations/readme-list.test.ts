/** The README's integrations list is generated from the registry, never maintained by hand. */
import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { integrations } from "../../integrations/index.js";
import { END_MARKER, START_MARKER, generatedReadme } from "../../src/tools/integrations-readme.js";

const readmePath = fileURLToPath(new URL("../../README.md", import.meta.url));

describe("README.md", () => {
  it("lists exactly the registered integrations (npm run docs:integrations rewrites the list)", async () => {
    const readme = fs.readFileSync(readmePath, "utf8");
    const generated = await generatedReadme(readme, readmePath, integrations);
    const block = (text: string): string => text.slice(text.indexOf(START_MARKER), text.indexOf(END_MARKER));
    expect(block(readme)).toBe(block(generated));
  });

  it("links the doc of every registered integration", () => {
    const readme = fs.readFileSync(readmePath, "utf8");
    const missing = integrations
      .map((i) => i.name)
      .filter((name) => !readme.includes(`[\`${name}\`](integrations/`));
    expect(missing).toEqual([]);
  });
});
