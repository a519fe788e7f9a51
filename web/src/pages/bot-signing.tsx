import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";

interface SigningSecret {
  /** An HMAC-SHA256 secret (`whsec_…`); absent for an Ed25519 key. */
  secret?: string;
  /** An Ed25519 key's public key (`whpk_…`); the secret key stays on the server. */
  public_key?: string;
  created_at: number;
  retires_at: number | null;
}

function failure(err: unknown): string {
  return err instanceof ApiError ? err.message : String(err);
}

/**
 * An outgoing-webhook bot's Standard Webhooks signing secrets on the Your bots page: show them, rotate
 * with an overlap (the old secret keeps signing until the time chosen), retire the old one
 * (docs/integration-operations.md).
 */
export function SigningSecretsPanel({ botId }: { botId: number }) {
  const [secrets, setSecrets] = useState<SigningSecret[] | undefined>();
  const [hours, setHours] = useState("24");
  const [algorithm, setAlgorithm] = useState("");
  const [error, setError] = useState("");
  const run = async (call: () => Promise<Record<string, unknown>>) => {
    setError("");
    try {
      setSecrets((await call())["signing_secrets"] as SigningSecret[]);
    } catch (err) {
      setError(failure(err));
    }
  };
  const rotate = () =>
    run(() =>
      api.post(`/bots/${botId}/signing_secrets/rotate`, {
        overlap_until: String(Math.floor(Date.now() / 1000) + Math.round(Number(hours) * 3600)),
        ...(algorithm === "" ? {} : { algorithm }),
      }),
    );
  return (
    <section class="signing-secrets" aria-label="Signing secrets">
      <h3>Signing secrets</h3>
      <p>
        Every webhook this bot receives is signed (Standard Webhooks headers) with each secret listed; give
        the bot server's <code>signing_secret</code> the secrets below (for an Ed25519 key, its{" "}
        <code>whpk_</code> public key: the secret key stays on this server).
      </p>
      {secrets === undefined ? (
        <button
          type="button"
          class="secondary"
          onClick={() => void run(() => api.get(`/bots/${botId}/signing_secrets`))}
        >
          Show signing secrets
        </button>
      ) : (
        <ul>
          {secrets.map((s) => (
            <li key={s.secret ?? s.public_key}>
              <code class="mono">{s.secret ?? s.public_key}</code>{" "}
              {s.public_key !== undefined && "Ed25519 public key "}
              {s.retires_at === null
                ? "(current)"
                : `(old: valid until ${new Date(s.retires_at * 1000).toISOString().replace("T", " ").slice(0, 16)} UTC)`}
            </li>
          ))}
        </ul>
      )}
      <div class="inline-form">
        <label>
          Keep the old secret valid for (hours)
          <input type="number" min="0" value={hours} onInput={(e) => setHours(e.currentTarget.value)} />
        </label>
        <label>
          Algorithm
          <select value={algorithm} onChange={(e) => setAlgorithm(e.currentTarget.value)}>
            <option value="">as now</option>
            <option value="hmac-sha256">HMAC-SHA256 (v1, shared secret)</option>
            <option value="ed25519">Ed25519 (v1a, public key)</option>
          </select>
        </label>
        <button type="button" class="secondary" onClick={() => void rotate()}>
          Rotate signing secret
        </button>
        {secrets !== undefined && secrets.some((s) => s.retires_at !== null) && (
          <button
            type="button"
            class="secondary"
            onClick={() => void run(() => api.post(`/bots/${botId}/signing_secrets/retire_old`))}
          >
            Retire old secret now
          </button>
        )}
      </div>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** An old credential still valid during a rotation's overlap (`GET /bots/{id}/credentials`). */
interface OldCredential {
  token?: string;
  rotated_at: number;
  retires_at: number | null;
}

interface Credentials {
  api_key: string;
  old_api_keys: OldCredential[];
  token: string | null;
  old_tokens: OldCredential[];
}

/**
 * The token(s) a receiver should accept now: the current one, and during an overlap the old ones still
 * sent (the bot server takes them space-separated: `token=new old`).
 */
function receiverTokens(c: Credentials): string | undefined {
  if (c.token === null) return undefined;
  return [c.token, ...c.old_tokens.flatMap((t) => (t.token === undefined ? [] : [t.token]))].join(" ");
}

function until(c: OldCredential): string {
  return c.retires_at === null
    ? "valid until you retire it"
    : `valid until ${new Date(c.retires_at * 1000).toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

/**
 * Rotation with an overlap of a bot's API key (and an outgoing-webhook bot's token) on the Your bots
 * page: the old one stays valid for the hours given (empty: until retired), then "Retire old … now"
 * ends the overlap (docs/integration-operations.md). Zulip's "Regenerate API key" stays immediate.
 */
export function CredentialRotationPanel({
  botId,
  outgoing,
  onApiKey,
  onToken,
}: {
  botId: number;
  /** An outgoing-webhook bot: its token can be rotated too. */
  outgoing: boolean;
  onApiKey: (key: string) => void;
  /** The token(s) the bot's receiver should accept (its botserverrc section), several during an overlap. */
  onToken: (token: string) => void;
}) {
  const [credentials, setCredentials] = useState<Credentials | undefined>();
  const [hours, setHours] = useState("24");
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  useEffect(() => {
    api
      .get(`/bots/${botId}/credentials`)
      .then((res) => {
        const loaded = res as unknown as Credentials;
        setCredentials(loaded);
        const tokens = receiverTokens(loaded);
        if (tokens !== undefined) onToken(tokens);
      })
      .catch((err: unknown) => setError(failure(err)));
  }, [botId]);
  const run = async (call: () => Promise<Record<string, unknown>>, done: string) => {
    setError("");
    setStatus("");
    try {
      const res = (await call()) as unknown as Credentials;
      setCredentials(res);
      onApiKey(res.api_key);
      const tokens = receiverTokens(res);
      if (tokens !== undefined) onToken(tokens);
      setStatus(done);
    } catch (err) {
      setError(failure(err));
    }
  };
  const overlap = (): Record<string, string> =>
    hours.trim() === ""
      ? {}
      : { overlap_until: String(Math.floor(Date.now() / 1000) + Math.round(Number(hours) * 3600)) };
  const oldKeys = credentials?.old_api_keys ?? [];
  const oldTokens = credentials?.old_tokens ?? [];
  return (
    <section class="signing-secrets" aria-label="Credential rotation">
      <h3>Rotate with an overlap</h3>
      <p>
        A new API key{outgoing ? " or outgoing token" : ""} while the old one keeps working for the hours
        given (empty: until you retire it), so the services using it can be moved without a gap.
        {outgoing && " During a token's overlap the old token is still sent; give the bot server both."}
      </p>
      <div class="inline-form">
        <label>
          Keep the old one valid for (hours)
          <input type="number" min="1" value={hours} onInput={(e) => setHours(e.currentTarget.value)} />
        </label>
        <button
          type="button"
          class="secondary"
          onClick={() =>
            void run(
              () => api.post(`/bots/${botId}/api_key/rotate`, overlap()),
              "New API key; the old one still works during the overlap.",
            )
          }
        >
          Rotate API key
        </button>
        {outgoing && (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              void run(
                () => api.post(`/bots/${botId}/token/rotate`, overlap()),
                "New outgoing token; the old one is still sent during the overlap.",
              )
            }
          >
            Rotate outgoing token
          </button>
        )}
      </div>
      {(oldKeys.length > 0 || oldTokens.length > 0) && (
        <ul aria-label="Old credentials">
          {oldKeys.map((k) => (
            <li key={`key-${k.rotated_at}-${k.retires_at}`}>Old API key: {until(k)}</li>
          ))}
          {oldTokens.map((t) => (
            <li key={`token-${t.token}`}>
              Old outgoing token <code class="mono">{t.token}</code>: {until(t)}
            </li>
          ))}
        </ul>
      )}
      <div class="inline-form">
        {oldKeys.length > 0 && (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              void run(
                () => api.post(`/bots/${botId}/api_key/retire_old`),
                "Old API key retired: only the current one works.",
              )
            }
          >
            Retire old API key now
          </button>
        )}
        {oldTokens.length > 0 && (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              void run(
                () => api.post(`/bots/${botId}/token/retire_old`),
                "Old token retired: the current one is sent.",
              )
            }
          >
            Retire old token now
          </button>
        )}
      </div>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
