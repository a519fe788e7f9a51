import crypto from "node:crypto";
import { timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { EgressPolicy } from "../egress/egress-policy.js";
import { egressPost } from "../egress/egress-request.js";

/** 25 MiB: the largest remote image the proxy passes on (docs/reliability.md, "Image proxy"). */
export const CAMO_MAX_BYTES = 25 * 1024 * 1024;
/** 10 s: the whole remote fetch, body included. */
export const CAMO_TIMEOUT_MS = 10_000;

/** Why a proxied image is not served; `status` is the HTTP status of the JSON error. */
export type CamoOutcome =
  | { kind: "image"; contentType: string; body: Buffer }
  | { kind: "error"; status: number; code: string; msg: string };

/**
 * Zulip's camo: a remote image URL in a message becomes `/external_content/<hmac>/<hex url>`,
 * signed with the server's secret (HMAC-SHA1 of the URL, as Zulip's camo.py), so viewers' browsers
 * never contact the third-party host.
 */
export class Camo {
  constructor(
    private readonly secret: string,
    private readonly egress: EgressPolicy,
  ) {}

  private digest(url: string): string {
    return crypto.createHmac("sha1", this.secret).update(url).digest("hex");
  }

  /** The proxy path for a remote URL. */
  path(url: string): string {
    return `/external_content/${this.digest(url)}/${Buffer.from(url, "utf8").toString("hex")}`;
  }

  /** The URL a signed pair names, or undefined when the signature does not match. */
  verify(digest: string, hexUrl: string): string | undefined {
    if (!/^[0-9a-f]*$/i.test(hexUrl) || hexUrl.length % 2 !== 0) return undefined;
    const url = Buffer.from(hexUrl, "hex").toString("utf8");
    const expected = Buffer.from(this.digest(url), "utf8");
    const given = Buffer.from(digest.toLowerCase(), "utf8");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    return url;
  }

  /** Fetches the image under the egress policy: no redirects, no cookies or auth, size and time limits. */
  async fetch(url: string): Promise<CamoOutcome> {
    const outcome = await egressPost(this.egress, {
      url,
      method: "GET",
      headers: { accept: "image/*", "user-agent": "ChatServer-ImageProxy" },
      body: "",
      timeoutMs: CAMO_TIMEOUT_MS,
      maxResponseBytes: CAMO_MAX_BYTES,
    });
    const bad = (msg: string, status = 502): CamoOutcome => ({
      kind: "error",
      status,
      code: "BAD_IMAGE",
      msg,
    });
    switch (outcome.kind) {
      case "response": {
        if (outcome.status < 200 || outcome.status >= 300)
          return bad(`The image's host answered HTTP ${outcome.status}.`);
        const type =
          String(outcome.headers["content-type"] ?? "")
            .split(";")[0]
            ?.trim()
            .toLowerCase() ?? "";
        // SVG can carry script; Zulip's camo serves raster images only.
        if (!type.startsWith("image/") || type === "image/svg+xml")
          return bad(`The remote file is not an image (Content-Type: ${type || "none"}).`);
        return { kind: "image", contentType: type, body: outcome.body };
      }
      case "failed":
        return bad(outcome.reason);
      case "timeout":
        return bad(`The image's host did not answer within ${CAMO_TIMEOUT_MS / 1000} seconds.`, 504);
      case "connection":
        return bad(`The image's host could not be reached: ${outcome.reason}`);
      case "exception":
        return bad(`The image could not be fetched: ${outcome.message}`);
      case "aborted":
        return bad("The image fetch was aborted.");
    }
  }
}

/**
 * The proxy's signing secret: `<dataDir>/camo-secret` (0600), made on first start and read by every
 * later start and every process sharing the data dir, so signed URLs in stored messages stay valid.
 * A ":memory:" data dir (tests) gets a random secret for the process.
 */
export function loadCamoSecret(dataDir: string): string {
  if (dataDir === ":memory:") return crypto.randomBytes(32).toString("hex");
  const file = path.join(dataDir, "camo-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing !== "") return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = crypto.randomBytes(32).toString("hex");
  try {
    // "wx": when two processes start together, the first one's secret wins.
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw err;
  }
}
