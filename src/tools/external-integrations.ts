/**
 * Integrations written outside this repository (`serve --integrations-path DIR|PACKAGE`): a module
 * whose default export is an integration definition (the kit's `defineIntegration` shape, a plain
 * object needs no import) or a list of them, loaded at start-up with the same checks as the
 * bundled ones. A broken one stops start-up with a message naming it.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { defineIntegration } from "../../integrations/kit/index.js";
import type { AnyIntegration, IntegrationDefinition } from "../../integrations/kit/index.js";
import type { LoadedIntegration } from "../domain/webhooks/webhook-service.js";

/** An integration loaded from outside, with the folder its doc.md and fixtures are read from. */
export type ExternalIntegration = LoadedIntegration;

/** A module that could not be loaded as integrations; the message names it and says why. */
export class IntegrationLoadError extends Error {}

const ENTRY_FILES = ["index.mjs", "index.js", "index.ts"];

/** The module file a path names: the file itself, or a folder's index (.mjs, .js or .ts). */
function entryOf(target: string): string | undefined {
  if (!fs.existsSync(target)) return undefined;
  if (fs.statSync(target).isFile()) return target;
  return ENTRY_FILES.map((f) => path.join(target, f)).find((f) => fs.existsSync(f));
}

async function importModule(file: string): Promise<unknown> {
  if (!file.endsWith(".ts")) return import(pathToFileURL(file).href);
  // TypeScript needs tsx's loader (a development dependency of this package).
  let tsx: { tsImport: (specifier: string, parent: string) => Promise<unknown> };
  try {
    tsx = await import("tsx/esm/api");
  } catch {
    throw new Error("it is TypeScript, and tsx (to load it) is not installed: give a .js or .mjs module");
  }
  return tsx.tsImport(pathToFileURL(file).href, import.meta.url);
}

function asIntegration(value: unknown): AnyIntegration {
  if (typeof value !== "object" || value === null)
    throw new Error("its default export is not an integration");
  const v = value as { eventTypes?: unknown; body?: unknown };
  // defineIntegration's result already has its event list; a plain definition is checked now.
  return Array.isArray(v.eventTypes) && v.body !== undefined
    ? (value as AnyIntegration)
    : defineIntegration(value as IntegrationDefinition);
}

/**
 * Loads each path (a folder, a module file, or a package name resolved from the current folder);
 * refuses a name a bundled or earlier integration has.
 */
export async function loadExternalIntegrations(
  targets: readonly string[],
  bundled: readonly AnyIntegration[],
): Promise<ExternalIntegration[]> {
  const taken = new Set(bundled.map((i) => i.name));
  const out: ExternalIntegration[] = [];
  for (const target of targets) {
    const local = path.resolve(target);
    let file = entryOf(local);
    if (file === undefined) {
      try {
        file = createRequire(path.join(process.cwd(), "noop.js")).resolve(target);
      } catch {
        throw new IntegrationLoadError(`Integration module ${target}: no such file, folder or package`);
      }
    }
    let exported: unknown;
    try {
      exported = ((await importModule(file)) as { default?: unknown }).default;
    } catch (err) {
      throw new IntegrationLoadError(
        `Integration module ${target}: cannot load it: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const folder = fs.statSync(local, { throwIfNoEntry: false })?.isDirectory() ? local : path.dirname(file);
    for (const value of Array.isArray(exported) ? exported : [exported]) {
      let integration: AnyIntegration;
      try {
        integration = asIntegration(value);
      } catch (err) {
        throw new IntegrationLoadError(
          `Integration module ${target}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      if (taken.has(integration.name)) {
        throw new IntegrationLoadError(
          `Integration module ${target}: the name '${integration.name}' is already an integration's`,
        );
      }
      taken.add(integration.name);
      out.push({ integration, folder });
    }
  }
  return out;
}
