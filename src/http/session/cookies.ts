import type { ParameterizedContext } from "koa";

export const SESSION_COOKIE = "sessionid";
export const CSRF_COOKIE = "csrftoken";
/** The header the web app echoes the CSRF token in (Django's and Zulip's name). */
export const CSRF_HEADER = "x-csrftoken";

/** One cookie's value from the request's `Cookie` header, or undefined. */
export function readCookie(ctx: ParameterizedContext, name: string): string | undefined {
  const header = ctx.get("cookie");
  if (header === "") return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]+$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** Whether the browser reached us over https (directly, or through a proxy that says so). */
export function isHttps(ctx: ParameterizedContext): boolean {
  return ctx.secure || ctx.get("x-forwarded-proto").split(",")[0]?.trim() === "https";
}

/**
 * Appends a `Set-Cookie`: `SameSite=Lax`, `Path=/`, `Secure` over https; `HttpOnly` unless the
 * page must read it (the CSRF token). A max age of 0 deletes the cookie.
 */
export function setCookie(
  ctx: ParameterizedContext,
  name: string,
  value: string,
  opts: { maxAgeSeconds: number; httpOnly: boolean },
): void {
  const attrs = [`${name}=${value}`, "Path=/", `Max-Age=${opts.maxAgeSeconds}`, "SameSite=Lax"];
  if (opts.httpOnly) attrs.push("HttpOnly");
  if (isHttps(ctx)) attrs.push("Secure");
  ctx.append("Set-Cookie", attrs.join("; "));
}
