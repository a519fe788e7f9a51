import type { ParameterizedContext } from "koa";
import type { User } from "../domain/users/types.js";
import type { Params } from "./params.js";

/** What the middleware leaves on `ctx.state` for routes. */
export interface AppState {
  /** Query-string and body arguments merged (body wins), every value a string. */
  params: Params;
  /** The exact request body bytes (empty for GET and multipart). */
  rawBody: Buffer;
  /** Form fields when the body was urlencoded or multipart. */
  form: Record<string, string> | undefined;
  /** The authenticated user (set by the Basic-auth middleware on authenticated routes). */
  user: User;
  /** The request's credentials were checked before its body was read (credentials-first.ts). */
  credentialsVerified?: boolean;
}

export type AppContext = ParameterizedContext<AppState>;

/** `{result: "success", msg: "", ...data}` */
export function success(data: Record<string, unknown> = {}): Record<string, unknown> {
  return { result: "success", msg: "", ...data };
}
