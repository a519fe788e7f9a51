import crypto from "node:crypto";

const API_KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random 32-character alphanumeric key, Zulip's API key format. */
export function generateApiKey(): string {
  const bytes = crypto.randomBytes(32);
  let out = "";
  for (const b of bytes) out += API_KEY_ALPHABET[b % API_KEY_ALPHABET.length];
  return out;
}

export function isWellFormedApiKey(key: string): boolean {
  return /^[A-Za-z0-9]{32}$/.test(key);
}

/** Compares two secrets in constant time (for equal lengths; unequal lengths fail fast). */
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

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** scrypt$N$r$p$salt$hash (base64). */
export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64");
  const actual = crypto.scryptSync(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A random token for outgoing-webhook services. */
export function generateToken(): string {
  return generateApiKey();
}

/** A random password for the first owner account. */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString("base64url");
}
