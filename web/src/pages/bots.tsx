import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiError, api, text } from "../lib/api.js";
import { BUNDLED_BOTS } from "../lib/bundled-bots.js";
import { botserverrcSection, zuliprc } from "../lib/url-builder.js";
import { CredentialRotationPanel, SigningSecretsPanel } from "./bot-signing.js";
import { DeliveriesPanel } from "./deliveries.js";

export interface Bot {
  user_id: number;
  email: string;
  full_name: string;
  bot_type: number;
  api_key: string;
  is_active?: boolean;
  services: { base_url?: string; interface?: number; token?: string; service_name?: string }[];
}

export const BOT_TYPES: readonly { id: number; label: string }[] = [
  { id: 1, label: "Generic" },
  { id: 2, label: "Incoming webhook" },
  { id: 3, label: "Outgoing webhook" },
  { id: 4, label: "Embedded" },
];

const typeLabel = (id: number) => BOT_TYPES.find((t) => t.id === id)?.label ?? `Type ${id}`;
const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

function Download({ name, text, label }: { name: string; text: string; label: string }) {
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: "text/plain" })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <a class="button secondary" href={href} download={name}>
      {label}
    </a>
  );
}

function AddBotForm({ onCreated }: { onCreated: (bot: Bot, runs: string) => void }) {
  const [type, setType] = useState(1);
  const [name, setName] = useState("");
  const [shortName, setShortName] = useState("");
  const [url, setUrl] = useState("");
  const [iface, setIface] = useState(1);
  const [service, setService] = useState("");
  const [runs, setRuns] = useState("helloworld");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const derived = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const res = await api.post("/bots", {
        full_name: name.trim(),
        short_name: shortName.trim() || derived,
        bot_type: type,
        ...(type === 3 ? { payload_url: url.trim(), interface_type: iface } : {}),
        ...(type === 4 ? { service_name: service.trim() } : {}),
      });
      onCreated(
        {
          user_id: Number(res["user_id"]),
          email: String(res["email"]),
          full_name: name.trim(),
          bot_type: type,
          api_key: String(res["api_key"]),
          services: (res["services"] ?? []) as Bot["services"],
        },
        runs,
      );
      setName("");
      setShortName("");
      setUrl("");
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card add-bot" onSubmit={(e) => void submit(e)} aria-label="New bot">
      <label>
        Bot type
        <select aria-label="Bot type" value={type} onChange={(e) => setType(Number(e.currentTarget.value))}>
          {BOT_TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name
        <input required value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Bot email (the part before -bot@)
        <input value={shortName} placeholder={derived} onInput={(e) => setShortName(e.currentTarget.value)} />
      </label>
      {type === 3 && (
        <>
          <label>
            Endpoint URL
            <input type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
          </label>
          <label>
            Interface
            <select
              aria-label="Interface"
              value={iface}
              onChange={(e) => setIface(Number(e.currentTarget.value))}
            >
              <option value={1}>Generic</option>
              <option value={2}>Slack compatible</option>
            </select>
          </label>
          <RunsSelect value={runs} onChange={setRuns} />
        </>
      )}
      {type === 4 && (
        <label>
          Bot
          <input
            required
            placeholder="helloworld"
            value={service}
            onInput={(e) => setService(e.currentTarget.value)}
          />
        </label>
      )}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Create bot
      </button>
    </form>
  );
}

/** Which bundled bot a bot server runs for an outgoing-webhook bot: its botserverrc section's name. */
function RunsSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label>
      Bundled bot to run
      <select aria-label="Bundled bot to run" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {BUNDLED_BOTS.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

const MASK = "••••••••••••••••";

function BotCard({
  bot,
  site,
  integrations,
  runs: initialRuns,
}: {
  bot: Bot;
  site: string;
  integrations: string[];
  runs: string | undefined;
}) {
  const outgoing = bot.services[0];
  const [name, setName] = useState(bot.full_name);
  const [renaming, setRenaming] = useState<string | undefined>();
  const [active, setActive] = useState(bot.is_active !== false);
  const [confirming, setConfirming] = useState(false);
  const [revealed, setRevealed] = useState(false);
  const [runs, setRuns] = useState(initialRuns ?? "helloworld");
  const [url, setUrl] = useState(outgoing?.base_url ?? "");
  const [secretFor, setSecretFor] = useState("webhook");
  const [secret, setSecret] = useState("");
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const [apiKey, setApiKey] = useState(bot.api_key);
  const [token, setToken] = useState(outgoing?.token);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const hasDeliveries = bot.bot_type === 2 || bot.bot_type === 3;
  const regenerate = async () => {
    setError("");
    setStatus("");
    try {
      const res = await api.post(`/bots/${bot.user_id}/api_key/regenerate`);
      setApiKey(text(res["api_key"]));
      setStatus("New API key generated; the old one no longer works.");
    } catch (err) {
      setError(message(err));
    }
  };
  const patch = async (params: Record<string, string>, done: string): Promise<boolean> => {
    setError("");
    setStatus("");
    try {
      await api.patch(`/bots/${bot.user_id}`, params);
      setStatus(done);
      return true;
    } catch (err) {
      setError(message(err));
      return false;
    }
  };
  const rename = async (e: Event) => {
    e.preventDefault();
    if (renaming === undefined) return;
    if (await patch({ full_name: renaming.trim() }, "Name saved.")) {
      setName(renaming.trim());
      setRenaming(undefined);
    }
  };
  const setActivity = async (on: boolean) => {
    setError("");
    setStatus("");
    try {
      if (on) await api.post(`/users/${bot.user_id}/reactivate`);
      else await api.delete(`/bots/${bot.user_id}`);
      setActive(on);
      setConfirming(false);
      setStatus(on ? "Bot reactivated." : "Bot deactivated: it can no longer send or receive messages.");
    } catch (err) {
      setError(message(err));
    }
  };
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(apiKey);
      setStatus("API key copied.");
    } catch {
      setError("Cannot copy here; use Show API key.");
    }
  };
  const short = (bot.email.split("@")[0] ?? "bot").replace(/-bot$/, "");
  return (
    <li class={active ? "card bot" : "card bot inactive"} aria-label={name}>
      <h2>{name}</h2>
      <p class="meta">
        {typeLabel(bot.bot_type)}
        {active ? "" : " · Deactivated"}
      </p>
      {renaming !== undefined ? (
        <form class="inline-form" aria-label={`Rename ${name}`} onSubmit={(e) => void rename(e)}>
          <label class="grow">
            New name
            <input
              required
              maxLength={100}
              value={renaming}
              onInput={(e) => setRenaming(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Save name</button>
          <button type="button" class="secondary" onClick={() => setRenaming(undefined)}>
            Cancel
          </button>
        </form>
      ) : null}
      <label>
        Bot email
        <input readOnly value={bot.email} />
      </label>
      <div class="inline-form">
        <label class="grow">
          API key
          <input readOnly value={revealed ? apiKey : MASK} class="mono" />
        </label>
        <button
          type="button"
          class="secondary"
          aria-pressed={revealed}
          onClick={() => setRevealed(!revealed)}
        >
          {revealed ? "Hide API key" : "Show API key"}
        </button>
        <button type="button" class="secondary" onClick={() => void copyKey()}>
          Copy API key
        </button>
      </div>
      <div class="actions">
        {renaming === undefined && (
          <button type="button" class="secondary" onClick={() => setRenaming(name)}>
            Rename
          </button>
        )}
        {active ? (
          confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void setActivity(false)}>
                Yes, deactivate {name}
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" class="secondary" onClick={() => setConfirming(true)}>
              Deactivate
            </button>
          )
        ) : (
          <button type="button" class="secondary" onClick={() => void setActivity(true)}>
            Reactivate
          </button>
        )}
        <Download name="zuliprc" text={zuliprc(bot.email, apiKey, site)} label="Download zuliprc" />
        {bot.bot_type === 3 && (
          <Download
            name={`botserverrc-${short}`}
            text={botserverrcSection(runs, bot.email, apiKey, site, token)}
            label="Download botserverrc section"
          />
        )}
        <button type="button" class="secondary" onClick={() => void regenerate()}>
          Regenerate API key
        </button>
        {hasDeliveries && (
          <button
            type="button"
            class="secondary"
            aria-expanded={showDeliveries}
            onClick={() => setShowDeliveries(!showDeliveries)}
          >
            Deliveries
          </button>
        )}
      </div>
      {hasDeliveries && showDeliveries && <DeliveriesPanel botId={bot.user_id} />}
      <CredentialRotationPanel
        botId={bot.user_id}
        outgoing={bot.bot_type === 3}
        onApiKey={setApiKey}
        onToken={setToken}
      />
      {bot.bot_type === 3 && <SigningSecretsPanel botId={bot.user_id} />}
      {bot.bot_type === 3 && (
        <>
          <RunsSelect value={runs} onChange={setRuns} />
          {revealed && (
            <label>
              botserverrc section
              <textarea
                readOnly
                rows={5}
                class="mono"
                value={botserverrcSection(runs, bot.email, apiKey, site, token)}
              />
            </label>
          )}
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void patch({ service_payload_url: url.trim() }, "Endpoint URL saved.");
            }}
          >
            <label class="grow">
              Endpoint URL
              <input type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
            </label>
            <button type="submit">Save URL</button>
          </form>
        </>
      )}
      {bot.bot_type === 2 && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void patch(
              { config_data: JSON.stringify({ [`${secretFor}_secret`]: secret }) },
              "Signing secret saved.",
            ).then(() => setSecret(""));
          }}
        >
          <label>
            Secret for
            <select
              aria-label="Secret for"
              value={secretFor}
              onChange={(e) => setSecretFor(e.currentTarget.value)}
            >
              <option value="webhook">Every integration</option>
              {integrations.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label class="grow">
            Signing secret
            <input
              type="password"
              autoComplete="off"
              value={secret}
              onInput={(e) => setSecret(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={secret === ""}>
            Save secret
          </button>
        </form>
      )}
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function BotsPage() {
  const [bots, setBots] = useState<Bot[] | undefined>();
  const [adding, setAdding] = useState(false);
  /** The bundled bot chosen when a bot was created here (its botserverrc section). */
  const [runs, setRuns] = useState<Record<number, string>>({});
  const [error, setError] = useState("");
  const [integrations, setIntegrations] = useState<string[]>([]);
  useEffect(() => {
    api
      .get("/bots")
      .then((res) => setBots(res["bots"] as Bot[]))
      .catch((err: unknown) => setError(message(err)));
    api
      .getPublic("/api/v1/integrations")
      .then((res) => setIntegrations((res["integrations"] as { name: string }[]).map((i) => i.name)))
      .catch(() => undefined);
  }, []);
  const site = window.location.origin;
  return (
    <div class="page">
      <div class="page-head">
        <h1>Your bots</h1>
        <button type="button" onClick={() => setAdding(!adding)} aria-expanded={adding}>
          Add a new bot
        </button>
      </div>
      {adding && (
        <AddBotForm
          onCreated={(bot, botName) => {
            setRuns({ ...runs, [bot.user_id]: botName });
            setBots([bot, ...(bots ?? [])]);
            setAdding(false);
          }}
        />
      )}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {bots === undefined && error === "" && <p role="status">Loading…</p>}
      {bots !== undefined && bots.length === 0 && <p>You have no bots yet.</p>}
      <ul class="bots">
        {bots?.map((b) => (
          <BotCard key={b.user_id} bot={b} site={site} integrations={integrations} runs={runs[b.user_id]} />
        ))}
      </ul>
    </div>
  );
}
