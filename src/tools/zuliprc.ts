import fs from "node:fs";

/** Reads `email`, `key` and `site` from a zuliprc file (`[api]` section, as Zulip's clients write it). */
export function readZuliprc(file: string): { email: string; key: string; site: string } {
  const text = fs.readFileSync(file, "utf8");
  const get = (k: string): string => new RegExp(`^\\s*${k}\\s*=\\s*(.*?)\\s*$`, "m").exec(text)?.[1] ?? "";
  return { email: get("email"), key: get("key"), site: get("site") };
}
