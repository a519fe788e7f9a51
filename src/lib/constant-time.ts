import crypto from "node:crypto";

/**
 * Compares two secrets in constant time (for equal lengths; unequal lengths fail fast). The one
 * comparison of secrets, shared by the chat server, the webhook kit and the bot server.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  if (ab.length !== bb.length) {
    // Still do a comparison of equal cost so the length is the only thing that leaks.
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}
