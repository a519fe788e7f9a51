import type { ParameterizedContext } from "koa";

/**
 * The web app's Content Security Policy: scripts and styles only from our own origin (no inline
 * script, no eval), no plugins, no framing by other sites, forms and fetches to our origin only.
 * Images may come from https (avatars, image previews in messages).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers on every answer of the web app (HTML pages and their assets). */
export function setSecurityHeaders(ctx: ParameterizedContext): void {
  ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("X-Frame-Options", "DENY");
  ctx.set("Referrer-Policy", "same-origin");
  ctx.set("Cross-Origin-Opener-Policy", "same-origin");
}
