/**
 * A recording HTTP proxy for tests that drive the server through a real client library (zulip-js):
 * the client talks to the proxy, the proxy forwards each request unchanged to the server and records
 * what went each way, so a test can check every answer against Zulip's OpenAPI schemas and see
 * exactly what the client sent. Only loopback traffic: the target is a test server on 127.0.0.1.
 */
import { createServer, request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { checkZulipSchema, formatMismatch } from "../helpers/openapi.js";

export interface Exchange {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  status: number;
  /** Parsed JSON answer, or undefined when it was not JSON. */
  body: unknown;
}

export interface RecordingProxy {
  url: string;
  /** Completed exchanges, in the order their answers came back. */
  exchanges: Exchange[];
  /** Resolves once a request matching `predicate` has reached the proxy (it may still be pending). */
  waitForRequest(predicate: (method: string, path: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Every answer that does not match Zulip's schema for its endpoint, as readable messages. */
  schemaMismatches(): string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const exchanges: Exchange[] = [];
  const arrived: { method: string; path: string }[] = [];
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    arrived.push({ method, path });
    for (const wake of waiters) wake();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const requestBody = Buffer.concat(chunks);
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method,
          path,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            const text = Buffer.concat(body).toString("utf8");
            let parsed: unknown = undefined;
            try {
              parsed = text === "" ? undefined : JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            const status = answer.statusCode ?? 0;
            exchanges.push({
              method,
              path,
              requestHeaders: req.headers,
              requestBody: requestBody.toString("utf8"),
              status,
              body: parsed,
            });
            res.writeHead(status, answer.headers);
            res.end(text);
          });
        },
      );
      forward.on("error", () => res.destroy());
      // A client that goes away (a stopped long poll) takes its upstream request with it.
      res.on("close", () => {
        if (!res.writableFinished) forward.destroy();
      });
      forward.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    exchanges,
    waitForRequest(predicate, timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): boolean => arrived.some((r) => predicate(r.method, r.path));
        if (check()) {
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error("The expected request did not reach the proxy in time"));
        }, timeoutMs);
        const wake = (): void => {
          if (!check()) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    },
    schemaMismatches() {
      return exchanges.flatMap((e) => {
        const m = checkZulipSchema(e.method, e.path, e.status, e.body);
        return m === undefined ? [] : [formatMismatch(e.method, e.path, m, e.body)];
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
