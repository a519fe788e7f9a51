import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Router from "@koa/router";
import type { ParameterizedContext } from "koa";
import { SESSION_LIFETIME_MS, newSecret } from "../../domain/web/session-service.js";
import { constantTimeEqual } from "../../lib/constant-time.js";
import { CsrfFailedError } from "../../errors.js";
import type { Services } from "../../services.js";
import { parseArgs, str } from "../params.js";
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, readCookie, setCookie } from "../session/cookies.js";
import { checkCsrf, sessionOf } from "../session/session-auth.js";
import { setSecurityHeaders } from "../session/security-headers.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** Where `vite build` writes the web app (git-ignored; built by `npm install` / `npm start`). */
export const WEB_DIR = fileURLToPath(new URL("../../../dist/web/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

/** The app's pages (client-side routes): all served by the same index.html. */
const APP_PAGES = ["/", "/settings", "/settings/bots", "/integrations", "/integrations/:name"];

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head>
<body><h1>The web app has not been built</h1><p>Run <code>npm run build:web</code> (or <code>npm install</code>), then reload.</p></body></html>`;

function sendIndex(ctx: ParameterizedContext, webDir: string): void {
  setSecurityHeaders(ctx);
  ctx.set("Cache-Control", "no-store");
  ctx.type = "text/html; charset=utf-8";
  // The CSRF cookie exists before sign-in too, so the sign-in form is protected (double submit).
  if (readCookie(ctx, CSRF_COOKIE) === undefined) {
    setCookie(ctx, CSRF_COOKIE, newSecret(), { maxAgeSeconds: SESSION_LIFETIME_MS / 1000, httpOnly: false });
  }
  const file = path.join(webDir, "index.html");
  if (!fs.existsSync(file)) {
    ctx.status = 503;
    ctx.body = NOT_BUILT;
    return;
  }
  ctx.body = fs.createReadStream(file);
}

/** A request from another site (a browser says so in `Origin`) never changes state here. */
function checkOrigin(ctx: ParameterizedContext): void {
  const origin = ctx.get("origin");
  if (origin === "" || origin === "null") return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host !== ctx.host) {
    throw new CsrfFailedError("Origin checking failed - " + origin + " does not match any trusted origins.");
  }
}

/**
 * The web app: its pages (sign-in at `/login`, the rest behind a session), its static assets,
 * and sign-in/sign-out. The app's API calls go to `/json/...` (see session-auth.ts).
 */
export function webRouter(services: Pick<Services, "sessions">, webDir = WEB_DIR): Router<AppState> {
  const router = new Router<AppState>();

  router.get("/login", async (ctx) => {
    setSecurityHeaders(ctx);
    if ((await sessionOf(ctx, services.sessions)) !== undefined) return ctx.redirect("/");
    sendIndex(ctx, webDir);
  });

  router.get(APP_PAGES, async (ctx) => {
    setSecurityHeaders(ctx);
    if ((await sessionOf(ctx, services.sessions)) === undefined) return ctx.redirect("/login");
    sendIndex(ctx, webDir);
  });

  // An invitation link's page: open without a session (src/http/routes/invites.ts takes its form).
  router.get("/join/:key", (ctx) => sendIndex(ctx, webDir));

  router.get("/assets/:file", async (ctx) => {
    const name = ctx.params["file"] ?? "";
    const type = CONTENT_TYPES[path.extname(name)];
    const file = path.join(webDir, "assets", name);
    if (!/^[A-Za-z0-9._-]+$/.test(name) || type === undefined || !fs.existsSync(file)) return;
    setSecurityHeaders(ctx);
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.type = type;
    ctx.body = await fs.promises.readFile(file);
  });

  // Sign-in: email + password → a session cookie (HttpOnly) and a fresh CSRF token (readable).
  router.post("/login", async (ctx) => {
    checkOrigin(ctx);
    const cookieToken = readCookie(ctx, CSRF_COOKIE);
    const sent = ctx.get(CSRF_HEADER) || (ctx.state.params["csrfmiddlewaretoken"] ?? "");
    if (cookieToken === undefined || sent === "") throw new CsrfFailedError("CSRF token missing.");
    if (!constantTimeEqual(sent, cookieToken)) throw new CsrfFailedError("CSRF token incorrect.");
    const args = parseArgs(ctx.state.params, { username: str, password: str });
    const session = await services.sessions.signIn(args.username, args.password, ctx.ip);
    // A session this browser had before ends: one browser, one session.
    const previous = readCookie(ctx, SESSION_COOKIE);
    if (previous !== undefined) await services.sessions.signOut(previous);
    const maxAgeSeconds = Math.floor(SESSION_LIFETIME_MS / 1000);
    setCookie(ctx, SESSION_COOKIE, session.id, { maxAgeSeconds, httpOnly: true });
    setCookie(ctx, CSRF_COOKIE, session.csrfToken, { maxAgeSeconds, httpOnly: false });
    ctx.set("Cache-Control", "no-store");
    ctx.body = success({ user_id: session.user.id, email: session.user.email });
  });

  // Sign-out ends the session on the server, then clears the cookie.
  router.post("/logout", async (ctx) => {
    checkOrigin(ctx);
    const session = await sessionOf(ctx, services.sessions);
    if (session !== undefined) {
      checkCsrf(ctx, session.csrfToken);
      await services.sessions.signOut(session.id);
    }
    setCookie(ctx, SESSION_COOKIE, "", { maxAgeSeconds: 0, httpOnly: true });
    ctx.body = success();
  });

  return router;
}
