import { Writable } from "node:stream";
import Router from "@koa/router";
import type { Middleware } from "koa";
import { koaBody } from "koa-body";
import { BadRequestError, JsonableError } from "../../errors.js";
import { contentDisposition } from "../../domain/uploads/files.js";
import type { Services } from "../../services.js";
import { attachmentWire } from "../../wire/uploads.js";
import { basicAuth } from "../middleware/basic-auth.js";
import { sessionOf } from "../session/session-auth.js";
import type { AppContext, AppState } from "../state.js";
import { success } from "../state.js";

/** POST /api/v1/user_uploads (and /json/user_uploads): the one route whose file parts are kept. */
export function isUploadRequest(ctx: { method: string; path: string }): boolean {
  return (
    ctx.method === "POST" &&
    (ctx.path === "/api/v1/user_uploads" ||
      ctx.path === "/json/user_uploads" ||
      // Custom emoji (realm-emoji.ts) upload one image the same way.
      /^\/(api\/v1|json)\/realm\/emoji\/[^/]+$/.test(ctx.path))
  );
}

interface UploadedPart {
  name: string;
  bytes: Buffer;
}

const uploadedFiles = new WeakMap<object, UploadedPart[]>();

/** The file parts `withUploadBody` kept for this request (none for other requests). */
export function uploadedParts(ctx: object): readonly UploadedPart[] {
  return uploadedFiles.get(ctx) ?? [];
}

/** Formidable's size errors carry 413. */
interface ParserError {
  httpCode?: number;
}

/**
 * The body parser of the upload route: multipart file parts are read into memory (never written
 * to a temporary file) up to the upload limit; the fields become `ctx.state.params` as the general
 * body parser would make them. Every other request goes to `general`.
 */
export function withUploadBody(
  general: Middleware<AppState>,
  maxFileUploadMib: number,
): Middleware<AppState> {
  const maxBytes = maxFileUploadMib * 1024 * 1024;
  return async function uploadBodyMiddleware(ctx, next) {
    if (!isUploadRequest(ctx) || !ctx.is("multipart")) {
      await general(ctx, next);
      return;
    }
    const chunks = new Map<string, Buffer[]>();
    const parse = koaBody({
      multipart: true,
      urlencoded: false,
      json: false,
      text: false,
      formidable: {
        maxFileSize: maxBytes,
        maxTotalFileSize: maxBytes,
        maxFieldsSize: 1024 * 1024,
        allowEmptyFiles: true,
        minFileSize: 0,
        // A part with a filename is a file even without a Content-Type of its own, as Django
        // reads it: python-requests (Zulip's Python client, its bots) sends file parts that way,
        // and formidable would otherwise take them for text fields.
        onPart: (part, handlePart) => {
          if (part.originalFilename != null && !part.mimetype) part.mimetype = "application/octet-stream";
          handlePart(part);
        },
        fileWriteStreamHandler: (file?: unknown) => {
          const list: Buffer[] = [];
          chunks.set((file as { newFilename: string }).newFilename, list);
          return new Writable({
            write(chunk: Buffer, _encoding, callback) {
              list.push(chunk);
              callback();
            },
          });
        },
      },
    });
    try {
      await parse(ctx, () => Promise.resolve());
    } catch (err) {
      const e = err as ParserError | null;
      if (e?.httpCode === 413) {
        throw new JsonableError(`Uploaded file is larger than the allowed limit of ${maxFileUploadMib} MiB`);
      }
      throw new BadRequestError("Malformed multipart body");
    }
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.query)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (last !== undefined) query[k] = last;
    }
    const form: Record<string, string> = {};
    for (const [k, v] of Object.entries((ctx.request.body ?? {}) as Record<string, string | string[]>)) {
      const last = Array.isArray(v) ? v[v.length - 1] : v;
      if (last !== undefined) form[k] = last;
    }
    const parts: UploadedPart[] = [];
    for (const value of Object.values(ctx.request.files ?? {})) {
      for (const f of Array.isArray(value) ? value : [value]) {
        parts.push({
          name: f.originalFilename ?? "",
          bytes: Buffer.concat(chunks.get(f.newFilename) ?? []),
        });
      }
    }
    uploadedFiles.set(ctx, parts);
    ctx.state.params = { ...query, ...form };
    ctx.state.rawBody = Buffer.alloc(0);
    ctx.state.form = form;
    await next();
  };
}

function attachmentId(ctx: AppContext): number {
  const raw = (ctx.params as Record<string, string | undefined>)["id"] ?? "";
  if (!/^\d+$/.test(raw)) throw new JsonableError("Invalid attachment");
  return Number(raw);
}

/**
 * POST /user_uploads, GET /user_uploads/{realm_id}/{filename} (a temporary URL), GET /attachments,
 * DELETE /attachments/{id} (behind API authentication).
 */
export function uploadsRouter(services: Pick<Services, "uploads">): Router<AppState> {
  const { uploads } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/user_uploads", async (ctx) => {
    const parts = uploadedFiles.get(ctx) ?? [];
    if (parts.length === 0) throw new JsonableError("You must specify a file to upload");
    if (parts.length > 1) throw new JsonableError("You may only upload one file at a time");
    const [part] = parts;
    const result = await uploads.upload(ctx.state.user, { name: part!.name, bytes: part!.bytes });
    ctx.body = success({ uri: result.url, url: result.url, filename: result.fileName });
  });

  router.get("/user_uploads/:realm_id/*path", async (ctx) => {
    const params = ctx.params as Record<string, string | undefined>;
    const pathId = `${params["realm_id"] ?? ""}/${params["path"] ?? ""}`;
    ctx.body = success({ url: await uploads.temporaryUrl(ctx.state.user, pathId) });
  });

  router.get("/attachments", async (ctx) => {
    const { attachments, spaceUsed } = await uploads.list(ctx.state.user);
    ctx.body = success({ attachments: attachments.map(attachmentWire), upload_space_used: spaceUsed });
  });

  router.delete("/attachments/:id", async (ctx) => {
    await uploads.delete(ctx.state.user, attachmentId(ctx));
    ctx.body = success();
  });

  return router;
}

/**
 * GET /user_uploads/{path}, and /user_uploads/thumbnail/{path}/{format} (an image's thumbnail):
 * the file itself, to a signed-in browser (session cookie) or an API
 * client (Basic auth), if that user may see it, or to anyone holding a temporary URL. Types a browser could run are downloads; nothing
 * is sniffed by the browser.
 */
export function uploadFilesRouter(
  services: Pick<Services, "sessions" | "uploads" | "users">,
): Router<AppState> {
  const router = new Router<AppState>();
  const basic = basicAuth(services.users);
  router.get("/user_uploads/*path", async (ctx) => {
    const pathId = (ctx.params as Record<string, string | undefined>)["path"] ?? "";
    let file;
    if (pathId.startsWith("temporary/")) {
      // A temporary URL (60 s) needs no credentials: its signature is the authorization.
      file = await services.uploads.serveTemporary(pathId.split("/")[1] ?? "");
    } else {
      const session = await sessionOf(ctx, services.sessions);
      if (session !== undefined) ctx.state.user = session.user;
      else await basic(ctx, () => Promise.resolve());
      if (pathId.startsWith("thumbnail/")) {
        // /user_uploads/thumbnail/{path}/{format} (Zulip 9.0): the image's thumbnail.
        const rest = pathId.slice("thumbnail/".length);
        const cut = rest.lastIndexOf("/");
        file = await services.uploads.thumbnail(ctx.state.user, rest.slice(0, cut), rest.slice(cut + 1));
      } else {
        file = await services.uploads.serve(ctx.state.user, pathId);
      }
    }
    ctx.set("Content-Type", file.contentType);
    ctx.set("Content-Disposition", contentDisposition(file.inline, file.fileName));
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
    ctx.set("Cache-Control", "private, max-age=86400");
    ctx.body = file.bytes;
  });
  return router;
}
