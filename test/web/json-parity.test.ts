/**
 * `/json/*` answers exactly as `/api/v1/*`: this file runs the whole messages API suite
 * (test/http/messages.test.ts, whose expected bodies are literals) a second time with every
 * request a signed-in person makes sent to `/json/...` with a web session and its CSRF token
 * instead of Basic auth. Bots cannot sign in; their requests stay on `/api/v1`.
 */
import { afterAll, expect, it } from "@jest/globals";
import { setRequestRewriter } from "../helpers/client.js";
import type { OutgoingRequest } from "../helpers/client.js";
import { OWNER_PASSWORD } from "../helpers/test-server.js";

/** The test cast's passwords (test/helpers/test-server.ts). */
function passwordOf(email: string): string {
  return email === "iago@zulip.com" ? OWNER_PASSWORD : `${email}-password`;
}

const PUBLIC = /^\/api\/v1\/(external\/|fetch_api_key|server_settings)/;
const sessions = new Map<string, { cookie: string; csrf: string } | null>();
const counts = { json: 0, api: [] as string[] };

function cookiesOf(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    out.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return out;
}

async function sessionFor(baseUrl: string, email: string, apiKey: string) {
  const key = `${baseUrl} ${email} ${apiKey}`;
  if (!sessions.has(key)) {
    // Sign in as the web app does: the CSRF cookie and header (double submit), then email + password.
    const res = await fetch(`${baseUrl}/login`, {
      method: "POST",
      headers: {
        cookie: "csrftoken=parity",
        "x-csrftoken": "parity",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ username: email, password: passwordOf(email) }).toString(),
    });
    const cookies = cookiesOf(res);
    const id = cookies.get("sessionid");
    const csrf = cookies.get("csrftoken");
    sessions.set(
      key,
      res.status === 200 && id !== undefined && csrf !== undefined
        ? { cookie: `sessionid=${id}; csrftoken=${csrf}`, csrf }
        : null,
    );
  }
  return sessions.get(key) ?? null;
}

async function throughJson(req: OutgoingRequest): Promise<void> {
  const path = req.url.slice(req.baseUrl.length);
  if (req.as === undefined || !path.startsWith("/api/v1/") || PUBLIC.test(path)) return;
  const session = await sessionFor(req.baseUrl, req.as.email, req.as.apiKey);
  if (session === null) {
    counts.api.push(`${req.as.email} ${req.method} ${path}`);
    return;
  }
  delete req.headers["authorization"];
  req.headers["cookie"] = session.cookie;
  req.headers["x-csrftoken"] = session.csrf;
  req.url = `${req.baseUrl}/json/${path.slice("/api/v1/".length)}`;
  counts.json++;
}

setRequestRewriter(throughJson);
afterAll(() => setRequestRewriter(undefined));

await import("../http/messages.test.js");

it("sent the suite's requests through /json", () => {
  expect(counts.json).toBeGreaterThan(100);
  // Only bots' requests stayed on /api/v1 (bots have no password, so no web session).
  expect(counts.api.filter((r) => !/^[^ ]+-bot@zulip\.com /.test(r))).toEqual([]);
});
