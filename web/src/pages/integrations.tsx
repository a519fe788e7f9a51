import { useEffect, useState } from "preact/hooks";
import { Link } from "wouter-preact";
import { ApiError, api } from "../lib/api.js";
import { categoriesOf, filterIntegrations, loadIntegrations } from "../lib/integrations.js";
import type { IntegrationInfo } from "../lib/integrations.js";

export function IntegrationsPage() {
  const [list, setList] = useState<IntegrationInfo[] | undefined>();
  const [error, setError] = useState("");
  const [query, setQuery] = useState("");
  const [category, setCategory] = useState("");
  useEffect(() => {
    loadIntegrations(() => api.getPublic("/api/v1/integrations"))
      .then(setList)
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : "Cannot load integrations."));
  }, []);
  const shown = list ? filterIntegrations(list, query, category) : [];
  return (
    <div class="page">
      <h1>Integrations</h1>
      <div class="filters">
        <label class="grow">
          Search integrations
          <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <label>
          Category
          <select aria-label="Category" value={category} onChange={(e) => setCategory(e.currentTarget.value)}>
            <option value="">All categories</option>
            {categoriesOf(list ?? []).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {list === undefined && error === "" && <p role="status">Loading…</p>}
      {list !== undefined && shown.length === 0 && <p>No integration matches.</p>}
      <ul class="directory">
        {shown.map((i) => (
          <li key={i.name} class="card">
            <Link href={`/integrations/${i.name}`}>{i.display_name}</Link>
            <p class="meta">{i.categories.join(", ")}</p>
            {i.description !== "" && <p>{i.description}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
