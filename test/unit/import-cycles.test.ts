import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import ts from "typescript";

/**
 * No import cycle among the sources (issue 25), type-only imports included: every relative import
 * of src/, integrations/, bots/ and web/src/ is followed, and the strongly connected components of
 * that graph must all be single files.
 */
const ROOTS = ["src", "integrations", "bots", "web/src"];

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(p);
      } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts")) {
        out.push(p);
      }
    }
  };
  for (const root of ROOTS) walk(root);
  return out;
}

/** Each source file's relative imports (static, dynamic and type-only), resolved to source files. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const deps: string[] = [];
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const base = path.join(path.dirname(file), fileName).replace(/\.js$/, "");
      const target = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((c) => known.has(c));
      if (target !== undefined) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file (each is a cycle). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("imports", () => {
  it("finds a cycle when there is one (the checker itself)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("form no cycle among the sources, type-only imports included", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(400);
    expect(cycles(importGraph(files))).toEqual([]);
  });
});
