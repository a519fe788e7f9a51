/** A small keep-alive HTTP client for the benchmark's own requests (node:http, loopback only). */
import http from "node:http";

export interface Account {
  id: number;
  email: string;
  apiKey: string;
}

export interface HttpResult {
  status: number;
  body: Record<string, unknown>;
}

export function basicAuth(account: { email: string; apiKey: string }): string {
  return `Basic ${Buffer.from(`${account.email}:${account.apiKey}`).toString("base64")}`;
}

export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost" && host !== "[::1]") {
    throw new Error(`the benchmark only talks to loopback, not ${host}`);
  }
}

export class Client {
  readonly agent: http.Agent;

  constructor(
    readonly baseUrl: string,
    maxSockets = 256,
  ) {
    assertLoopback(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(
    method: string,
    path: string,
    opts: { auth?: Account; form?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<HttpResult> {
    const body = opts.form === undefined ? undefined : new URLSearchParams(opts.form).toString();
    const headers: Record<string, string> = {};
    if (opts.auth !== undefined) headers["authorization"] = basicAuth(opts.auth);
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    return new Promise<HttpResult>((resolve, reject) => {
      const req = http.request(new URL(path, this.baseUrl), { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { raw: text } });
          }
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      if (opts.timeoutMs !== undefined) {
        req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`${method} ${path} timed out`)));
      }
      req.end(body);
    });
  }

  /** Like request() but throws unless the answer is 200 with result "success". */
  async ok(
    method: string,
    path: string,
    opts: { auth?: Account; form?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const res = await this.request(method, path, opts);
    if (res.status !== 200 || res.body["result"] !== "success") {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}

/** Polls `check` every `everyMs` until it returns true or `timeoutMs` passes; returns whether it did. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 5,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
