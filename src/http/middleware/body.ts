import { Writable } from "node:stream";
import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { BadRequestError, InvalidJsonError, JsonableError, RequestTooLargeError } from "../../errors.js";
import { MAX_JSON_DEPTH, jsonTooDeep } from "../json-depth.js";
import { mayBeJson } from "../params.js";
import type { AppState } from "../state.js";

function lastValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** Flattens a parsed body into string arguments: strings as is, anything else JSON-encoded. */
function toParams(obj: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    out[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return out;
}

/**
 * The whole body, with listeners (an async iterator over the request cost ~2 % of a webhook's CPU).
 * Over the limit, or on a stream error or an early close, the request is destroyed as the
 * iterator's early exit did, and the promise rejects with the client's error.
 */
function readRaw(stream: NodeJS.ReadableStream & { destroy(): void }, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: unknown, body?: Buffer): void => {
      if (settled) return;
      settled = true;
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
      stream.removeListener("close", onClose);
      if (body !== undefined) {
        resolve(body);
        return;
      }
      stream.destroy();
      reject(asBodyError(err, limit, "Malformed request body"));
    };
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limit) finish(new RequestTooLargeError(limit));
      else chunks.push(buf);
    };
    const onEnd = (): void =>
      finish(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = (err: unknown): void => finish(err);
    const onClose = (): void => finish(new Error("Premature close"));
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}

/** Formidable's errors about sizes and counts (maxFields, maxFieldsSize, maxFileSize, …) carry 413. */
interface ParserError {
  httpCode?: number;
  status?: number;
}

/**
 * Any failure while reading or parsing a body is the client's: a malformed multipart body, an
 * aborted upload, too many fields. It becomes a 400 BAD_REQUEST (413 for sizes) before
 * authentication runs, and is never logged as a server error.
 */
function asBodyError(err: unknown, limit: number, msg: string): JsonableError {
  if (err instanceof JsonableError) return err;
  const e = err as ParserError | null;
  if (e?.httpCode === 413 || e?.status === 413) return new RequestTooLargeError(limit);
  return new BadRequestError(msg);
}

/** Uploads are not supported: file parts of a multipart body are read and dropped, never written to disk. */
function discardFile(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}

/**
 * Reads every request's arguments into `ctx.state.params`: the query string, plus urlencoded,
 * multipart (zulip-js) or JSON bodies, for every method. Keeps the raw bytes in `ctx.state.rawBody`
 * for webhook signatures and for integrations that read JSON whatever the Content-Type says.
 */
export function bodyParser(options: { limitBytes: number; lenientJsonPaths: RegExp }): Middleware<AppState> {
  const multipart = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    formidable: {
      maxFileSize: options.limitBytes,
      maxTotalFileSize: options.limitBytes,
      maxFieldsSize: options.limitBytes,
      fileWriteStreamHandler: discardFile,
    },
  });
  return async function bodyParserMiddleware(ctx, next) {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.query)) {
      const last = lastValue(v);
      if (last !== undefined) query[k] = last;
    }
    let form: Record<string, string> | undefined;
    let body: Record<string, string> = {};
    let raw: Buffer = Buffer.alloc(0);
    const declared = Number(ctx.get("content-length") || "0");
    if (declared > options.limitBytes) throw new RequestTooLargeError(options.limitBytes);

    if (ctx.is("multipart")) {
      try {
        await multipart(ctx, () => Promise.resolve());
      } catch (err) {
        throw asBodyError(err, options.limitBytes, "Malformed multipart body");
      }
      const fields = (ctx.request.body ?? {}) as Record<string, string | string[]>;
      form = {};
      for (const [k, v] of Object.entries(fields)) {
        const last = lastValue(v);
        if (last !== undefined) form[k] = last;
      }
      body = form;
    } else if (ctx.method !== "GET" && ctx.method !== "HEAD") {
      raw = await readRaw(ctx.req, options.limitBytes);
      const text = raw.toString("utf8");
      // JSON bodies, and webhook bodies (parsed as JSON whatever their type), are refused before
      // any parse when they nest too deep.
      if (
        (ctx.is("json") || (options.lenientJsonPaths.test(ctx.path) && !ctx.is("urlencoded"))) &&
        mayBeJson(text) &&
        jsonTooDeep(text)
      ) {
        throw new InvalidJsonError(`Malformed JSON: nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      if (ctx.is("urlencoded")) {
        form = Object.fromEntries(new URLSearchParams(text));
        body = form;
      } else if (ctx.is("json") && text.trim() !== "" && !options.lenientJsonPaths.test(ctx.path)) {
        // Webhook paths (lenientJsonPaths) are skipped: their route takes its arguments from the
        // query string and form only (as Zulip does) and parses the raw body itself, so parsing and
        // re-serialising the payload here was thrown away (~4 % of a webhook request's CPU).
        try {
          const parsed = JSON.parse(text) as unknown;
          if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
            body = toParams(parsed as Record<string, unknown>);
          }
        } catch {
          throw new InvalidJsonError();
        }
      }
    }
    ctx.state.params = { ...query, ...body };
    ctx.state.rawBody = raw;
    ctx.state.form = form;
    await next();
  };
}
