/** The public list of integrations (GET /api/v1/integrations), as the directory reads it. */
import { text } from "./api.js";

export interface IntegrationOption {
  key: string;
  label: string;
  default?: unknown;
}

export interface IntegrationInfo {
  name: string;
  display_name: string;
  categories: string[];
  description: string;
  options: IntegrationOption[];
  events: string[];
}

/** Integrations whose name, display name or description contains the query, in the category. */
export function filterIntegrations(
  list: readonly IntegrationInfo[],
  query: string,
  category: string,
): IntegrationInfo[] {
  const q = query.trim().toLowerCase();
  return list.filter(
    (i) =>
      (category === "" || i.categories.includes(category)) &&
      (q === "" ||
        i.name.toLowerCase().includes(q) ||
        i.display_name.toLowerCase().includes(q) ||
        i.description.toLowerCase().includes(q)),
  );
}

export function categoriesOf(list: readonly IntegrationInfo[]): string[] {
  return [...new Set(list.flatMap((i) => i.categories))].sort();
}

/** Reads the list defensively: only the fields the directory needs, with safe defaults. */
export function readIntegrations(raw: unknown): IntegrationInfo[] {
  const items = Array.isArray(raw) ? (raw as Record<string, unknown>[]) : [];
  return items
    .map((i) => ({
      name: text(i["name"]),
      display_name: text(i["display_name"], text(i["name"])),
      categories: Array.isArray(i["categories"]) ? (i["categories"] as unknown[]).map(String) : [],
      description: typeof i["description"] === "string" ? i["description"] : "",
      options: Array.isArray(i["options"])
        ? (i["options"] as Record<string, unknown>[]).map((o) => ({
            key: text(o["key"]),
            label: text(o["label"], text(o["key"])),
            ...(o["default"] !== undefined ? { default: o["default"] } : {}),
          }))
        : [],
      events: Array.isArray(i["events"]) ? (i["events"] as unknown[]).map(String) : [],
    }))
    .filter((i) => i.name !== "")
    .map((i, _, all) =>
      // Two integrations with one display name (Bitbucket's legacy service and Bitbucket Cloud)
      // are told apart by their slug, the name in their webhook URL.
      all.some((o) => o !== i && o.display_name === i.display_name)
        ? { ...i, display_name: `${i.display_name} (${i.name})` }
        : i,
    )
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
}

let cache: Promise<IntegrationInfo[]> | undefined;
/** The list, fetched once per page load. */
export function loadIntegrations(
  fetchList: () => Promise<Record<string, unknown>>,
): Promise<IntegrationInfo[]> {
  cache ??= fetchList().then((res) => readIntegrations(res["integrations"]));
  cache.catch(() => (cache = undefined));
  return cache;
}
