import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import {
  YOUNG_GENERATION_FLAG,
  withYoungGeneration,
  youngGenerationChosen,
} from "../../src/lib/young-generation.js";

describe("the serving process's young generation", () => {
  it("is chosen by a semi-space size on the command line or in NODE_OPTIONS, ours or the operator's", () => {
    expect(youngGenerationChosen([], "")).toBe(false);
    expect(youngGenerationChosen(["--enable-source-maps"], "--max-old-space-size=4096")).toBe(false);
    expect(youngGenerationChosen(["--max-semi-space-size=64"], "")).toBe(true);
    expect(youngGenerationChosen(["--max_semi_space_size=32"], "")).toBe(true);
    expect(youngGenerationChosen([], "--trace-warnings  --max-semi-space-size=16")).toBe(true);
    expect(youngGenerationChosen(["--max-semi-space-size-other"], "")).toBe(false);
  });

  it("is added to a worker's Node options unless one was chosen", () => {
    expect(withYoungGeneration(["--enable-source-maps"], "")).toEqual([
      "--enable-source-maps",
      "--max-semi-space-size=64",
    ]);
    expect(withYoungGeneration(["--max-semi-space-size=16"], "")).toEqual(["--max-semi-space-size=16"]);
    expect(withYoungGeneration([], "--max-semi-space-size=128")).toEqual([]);
  });

  it("is what `npm start` passes to Node, and Node accepts it", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts["start"]).toBe(`node ${YOUNG_GENERATION_FLAG} bin/chat-server.js serve`);
    const node = spawnSync(process.execPath, [YOUNG_GENERATION_FLAG, "-e", "0"], { encoding: "utf8" });
    expect([node.status, node.stderr]).toEqual([0, ""]);
  });
});
