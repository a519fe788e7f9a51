import { useEffect, useState } from "preact/hooks";
import { useLocation } from "wouter-preact";
import { ApiError, api, text } from "../lib/api.js";

/**
 * Where an invitation link leads (`/join/<key>/`): the person chooses a name and password, gets
 * an account (in the default streams) and is signed in. No email is sent.
 */
export function JoinPage({ inviteKey }: { inviteKey: string }) {
  const [realm, setRealm] = useState<string | undefined>();
  const [invalid, setInvalid] = useState("");
  const [email, setEmail] = useState("");
  const [fullName, setFullName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const path = `/join/${encodeURIComponent(inviteKey)}`;
  useEffect(() => {
    api
      .getPublic(`${path}/status`)
      .then((res) => setRealm(text(res["realm_name"])))
      .catch((err: unknown) =>
        setInvalid(err instanceof ApiError ? err.message : "Cannot reach the server."),
      );
  }, [path]);
  useEffect(() => {
    document.title = realm === undefined ? "Join" : `Join ${realm}`;
  }, [realm]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await api.postPublic(path, { email: email.trim(), full_name: fullName.trim(), password });
      await api.login(email.trim(), password);
      navigate("/", { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot reach the server.");
      setBusy(false);
    }
  };
  return (
    <main class="login">
      {invalid !== "" ? (
        <div class="card login-card">
          <h1>Invitation not valid</h1>
          <p role="alert">{invalid}</p>
          <p>Ask the person who invited you for a new link.</p>
          <a href="/login">Log in</a>
        </div>
      ) : (
        <form class="card login-card" aria-label="Join" onSubmit={(e) => void submit(e)}>
          <h1>{realm === undefined ? "Join" : `Join ${realm}`}</h1>
          <p class="meta">You were invited. Choose how you sign in and what others see.</p>
          <label>
            Email
            <input
              type="email"
              name="username"
              autoComplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <label>
            Full name
            <input
              name="name"
              autoComplete="name"
              required
              maxLength={100}
              value={fullName}
              onInput={(e) => setFullName(e.currentTarget.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              name="password"
              autoComplete="new-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          {error !== "" && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy || realm === undefined}>
            Join
          </button>
        </form>
      )}
    </main>
  );
}
