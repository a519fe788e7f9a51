import { useState } from "preact/hooks";
import { useLocation } from "wouter-preact";
import { ApiError, api } from "../lib/api.js";

export function LoginPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await api.login(email, password);
      // The app is already loaded: go straight to it (the session cookie is set).
      navigate("/", { replace: true });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot reach the server.");
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <form class="card login-card" onSubmit={(e) => void submit(e)}>
        <h1>Log in</h1>
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
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
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
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
    </main>
  );
}
