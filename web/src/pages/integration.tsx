import { useEffect, useState } from "preact/hooks";
import { Link } from "wouter-preact";
import { ApiError, api, text } from "../lib/api.js";
import type { ChatStore } from "../lib/chat-store.js";
import { loadIntegrations } from "../lib/integrations.js";
import type { IntegrationInfo } from "../lib/integrations.js";
import { sanitize } from "../lib/sanitize.js";
import { authorizationHeader, buildWebhookUrl } from "../lib/url-builder.js";
import type { Bot } from "./bots.js";
import { TemplateEditor } from "./template-editor.js";

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

/** Headers a page may not set on a request (the browser sets them). */
const FORBIDDEN_HEADERS = new Set(["content-length", "host", "connection", "user-agent"]);

function TestPayload({ name, fixtures, url }: { name: string; fixtures: string[]; url: string | undefined }) {
  // A push (the most common first test) when the integration has one.
  const [fixture, setFixture] = useState(fixtures.find((f) => f.startsWith("push")) ?? fixtures[0] ?? "");
  const [result, setResult] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (url === undefined || fixture === "") return;
    setBusy(true);
    setResult("");
    try {
      const payload = await api.get(`/integrations/${name}/fixtures/${encodeURIComponent(fixture)}`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(payload["headers"] as Record<string, string>))
        if (!FORBIDDEN_HEADERS.has(k.toLowerCase())) headers[k] = v;
      // Post exactly what the service would, to the URL built above.
      const target = new URL(url);
      const res = await fetch(target.pathname + target.search, {
        method: "POST",
        headers,
        body: String(payload["body"]),
        credentials: "omit",
      });
      const text = await res.text();
      setResult(`${res.status} ${text}`);
    } catch (err) {
      setResult(message(err));
    } finally {
      setBusy(false);
    }
  };
  if (fixtures.length === 0) return <p>This integration has no sample payloads.</p>;
  return (
    <div class="test-payload">
      <div class="inline-form">
        <label class="grow">
          Sample payload
          <select
            aria-label="Sample payload"
            value={fixture}
            onChange={(e) => setFixture(e.currentTarget.value)}
          >
            {fixtures.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy || url === undefined} onClick={() => void send()}>
          Send a test payload
        </button>
      </div>
      {url === undefined && <p class="meta">Pick a bot first.</p>}
      {result !== "" && (
        <pre class="result" role="status" aria-label="Test payload result">
          {result}
        </pre>
      )}
    </div>
  );
}

export function IntegrationPage({ store, name }: { store: ChatStore; name: string }) {
  const [info, setInfo] = useState<IntegrationInfo | undefined>();
  const [doc, setDoc] = useState<{ html: string; fixtures: string[] } | undefined>();
  const [bots, setBots] = useState<Bot[]>([]);
  const [error, setError] = useState("");
  const [botId, setBotId] = useState(0);
  const [stream, setStream] = useState("");
  // Where the key goes in what the user copies; "Try it" always sends it in the query.
  const [keyIn, setKeyIn] = useState<"query" | "header" | "path">("query");
  const [topic, setTopic] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [options, setOptions] = useState<Record<string, string>>({});
  const [copied, setCopied] = useState("");

  useEffect(() => {
    setError("");
    loadIntegrations(() => api.getPublic("/api/v1/integrations"))
      .then((list) => {
        const found = list.find((i) => i.name === name);
        if (!found) setError(`There is no integration named "${name}".`);
        setInfo(found);
      })
      .catch((err: unknown) => setError(message(err)));
    api
      .get(`/integrations/${name}`)
      .then((res) => setDoc({ html: text(res["doc_html"]), fixtures: (res["fixtures"] ?? []) as string[] }))
      .catch(() => setDoc({ html: "", fixtures: [] }));
    api
      .get("/bots")
      .then((res) => {
        const list = (res["bots"] as Bot[]).filter((b) => b.is_active !== false);
        setBots(list);
        const preferred = list.find((b) => b.bot_type === 2) ?? list[0];
        if (preferred) setBotId(preferred.user_id);
      })
      .catch(() => undefined);
  }, [name]);

  const bot = bots.find((b) => b.user_id === botId);
  const url =
    bot === undefined
      ? undefined
      : buildWebhookUrl({
          site: window.location.origin,
          integration: name,
          apiKey: bot.api_key,
          stream,
          topic,
          onlyEvents: events,
          options,
        });
  const shownUrl = buildWebhookUrl({
    site: window.location.origin,
    integration: name,
    apiKey: bot?.api_key ?? "",
    stream,
    topic,
    onlyEvents: events,
    options,
    keyIn,
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shownUrl);
      setCopied("Copied.");
    } catch {
      const field = document.getElementById("integration-url") as HTMLInputElement | null;
      field?.select();
      setCopied("Select the URL and copy it.");
    }
  };
  const streams = [...store.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="page integration">
      <p>
        <Link href="/integrations">← All integrations</Link>
      </p>
      <h1>{info?.display_name ?? name}</h1>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <section class="card builder" aria-label="URL builder">
        <h2>Your webhook URL</h2>
        {bots.length === 0 ? (
          <p>
            You need a bot to receive the webhook:{" "}
            <Link href="/settings/bots">create an incoming webhook bot</Link>.
          </p>
        ) : (
          <label>
            Bot
            <select aria-label="Bot" value={botId} onChange={(e) => setBotId(Number(e.currentTarget.value))}>
              {bots.map((b) => (
                <option key={b.user_id} value={b.user_id}>
                  {b.full_name} ({b.email})
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Stream
          <input list="builder-streams" value={stream} onInput={(e) => setStream(e.currentTarget.value)} />
          <datalist id="builder-streams">
            {streams.map((s) => (
              <option key={s.stream_id} value={s.name} />
            ))}
          </datalist>
        </label>
        <label>
          Topic (optional: the integration picks one)
          <input value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        {info !== undefined && info.options.length > 0 && (
          <fieldset>
            <legend>Options</legend>
            {info.options.map((o) => (
              <label key={o.key}>
                {o.label}
                {typeof o.default === "boolean" ? (
                  <select
                    value={options[o.key] ?? ""}
                    onChange={(e) => setOptions({ ...options, [o.key]: e.currentTarget.value })}
                  >
                    <option value="">Default ({o.default ? "yes" : "no"})</option>
                    <option value="true">Yes</option>
                    <option value="false">No</option>
                  </select>
                ) : (
                  <input
                    value={options[o.key] ?? ""}
                    placeholder={
                      typeof o.default === "string" || typeof o.default === "number" ? String(o.default) : ""
                    }
                    onInput={(e) => setOptions({ ...options, [o.key]: e.currentTarget.value })}
                  />
                )}
              </label>
            ))}
          </fieldset>
        )}
        {info !== undefined && info.events.length > 0 && (
          <fieldset class="events">
            <legend>Events to keep (none checked: all)</legend>
            {info.events.map((ev) => (
              <label key={ev} class="check">
                <input
                  type="checkbox"
                  checked={events.includes(ev)}
                  onChange={(e) =>
                    setEvents(e.currentTarget.checked ? [...events, ev] : events.filter((x) => x !== ev))
                  }
                />
                {ev}
              </label>
            ))}
          </fieldset>
        )}
        <div class="inline-form">
          <label class="grow">
            Integration URL
            <input id="integration-url" readOnly class="mono" value={shownUrl} />
          </label>
          <button type="button" onClick={() => void copy()}>
            Copy URL
          </button>
        </div>
        <label>
          Send the bot's key
          <select
            aria-label="Send the bot's key"
            value={keyIn}
            onChange={(e) => setKeyIn(e.currentTarget.value as "query" | "header" | "path")}
          >
            <option value="query">In the URL's query (?api_key=): any service</option>
            <option value="header">In an Authorization header: services that can send headers</option>
            <option value="path">As a path segment: services that take only a URL</option>
          </select>
        </label>
        {keyIn === "header" && (
          <p>
            With each request, the header{" "}
            <code id="integration-header">{authorizationHeader(bot?.api_key ?? "")}</code> (or HTTP Basic with
            the bot's email as user and its key as password).
          </p>
        )}
        {copied !== "" && <p role="status">{copied}</p>}
        <h3>Try it</h3>
        {doc !== undefined && <TestPayload name={name} fixtures={doc.fixtures} url={url} />}
      </section>
      {name === "template" && <TemplateEditor bot={bot} />}
      {doc !== undefined && doc.html !== "" && (
        <section
          class="card doc"
          aria-label="Documentation"
          // A code block that scrolls sideways takes the focus, so the keyboard can scroll it.
          ref={(el) => el?.querySelectorAll("pre").forEach((pre) => (pre.tabIndex = 0))}
          dangerouslySetInnerHTML={{ __html: sanitize(doc.html) }}
        />
      )}
    </div>
  );
}
