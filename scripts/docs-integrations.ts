/**
 * `npm run docs:integrations`: rewrites the README's list of integrations from the registry
 * (integrations/index.ts). test/integrations/readme-list.test.ts fails when it is stale.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { integrations } from "../integrations/index.js";
import { generatedReadme } from "../src/tools/integrations-readme.js";

const readmePath = fileURLToPath(new URL("../README.md", import.meta.url));
const before = fs.readFileSync(readmePath, "utf8");
const after = await generatedReadme(before, readmePath, integrations);
if (after !== before) fs.writeFileSync(readmePath, after);
console.log(
  after === before
    ? "README.md: the integrations list is up to date"
    : "README.md: integrations list rewritten",
);
