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

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };
/** scrypt needs 128·N·r bytes; allow hashes with up to twice today's cost, refuse anything dearer. */
const MAX_SCRYPT_MEM = 256 * SCRYPT.N * SCRYPT.r;

function scrypt(password: string, salt: Buffer, keylen: number, opts: crypto.ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password, salt, keylen, { ...opts, maxmem: MAX_SCRYPT_MEM }, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}

/**
 * scrypt$N$r$p$salt$hash (base64). Runs on libuv's thread pool (`crypto.scrypt`, never
 * `scryptSync`): a password check costs ~50 ms of CPU that must not stall the event loop.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** Checks a password against a stored hash, off the event loop; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64");
  if (expected.length === 0) return false;
  try {
    const actual = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return crypto.timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** A hash of a random password, checked when the user is unknown so timing does not reveal emails. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("base64"));
  return dummyHash;
}

/** A random token for outgoing-webhook services. */
export function generateToken(): string {
  return generateApiKey();
}

/** A random password for the first owner account. */
export function generatePassword(): string {
  return crypto.randomBytes(12).toString("base64url");
}
